export const meta = { name: 'importer', description: 'Imports a helper module' }
import { chunk } from './helpers.js'
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
let n = 0
for (const pair of chunk(args.files, 2)) {
  const rs = await parallel(pair.map((f) => () => agent(`Format ${f}; write the diff to .importer-reports/${f}.md.`, { schema: SCHEMA })))
  n += rs.length
}
return { formatted: n }
