export const meta = { name: 'lint-fix', description: 'Fix lint errors file by file, two at a time' }

function limiter(max) {
  let active = 0
  const waiting = []
  const next = () => {
    if (active >= max || waiting.length === 0) return
    active++
    const { task, resolve, reject } = waiting.shift()
    task().then(resolve, reject).finally(() => {
      active--
      next()
    })
  }
  return (task) =>
    new Promise((resolve, reject) => {
      waiting.push({ task, resolve, reject })
      next()
    })
}

const limit = limiter(2)
const FIXED = {
  type: 'object',
  properties: { fixed: { type: 'integer' }, status: { enum: ['DONE', 'FAILED'] } },
  required: ['fixed', 'status'],
}
const results = await parallel(
  args.files.map((file) => () =>
    limit(() =>
      agent(`Fix the lint errors in ${file}. Write a log of each change to .lint-fix-reports/${file}.md.`, {
        schema: FIXED,
      }),
    ),
  ),
)
const ok = results.filter(Boolean)
return { files: args.files.length, fixed: ok.reduce((n, r) => n + r.fixed, 0), failed: args.files.length - ok.length }
