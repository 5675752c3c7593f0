export const meta = { name: 'matrix', description: 'Check two platforms against two versions' }
const OK = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
const PLATFORMS = ['linux', 'mac']
const VERSIONS = ['3.11', '3.12']
const grid = await parallel(
  PLATFORMS.map((p) => () =>
    parallel(
      VERSIONS.map((v) => () =>
        agent(`Run the tests on ${p} with Python ${v}; write the log to .matrix-reports/${p}-${v}.md.`, { schema: OK }),
      ),
    ),
  ),
)
return { failures: grid.flat().filter((r) => !r || !r.ok).length }
