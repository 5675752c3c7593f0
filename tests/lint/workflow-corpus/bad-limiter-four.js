export const meta = { name: 'wide', description: 'Rename a symbol across the packages' }
class Semaphore {
  constructor(n) {
    this.n = n
    this.queue = []
  }
  async run(task) {
    while (this.n === 0) await new Promise((resolve) => this.queue.push(resolve))
    this.n--
    try {
      return await task()
    } finally {
      this.n++
      const next = this.queue.shift()
      if (next) next()
    }
  }
}
const sem = new Semaphore(4)
const DONE = { type: 'object', properties: { renamed: { type: 'integer' } }, required: ['renamed'] }
const rs = await parallel(
  args.packages.map((p) => () =>
    sem.run(() => agent(`Rename the symbol in ${p}; write the edits to .wide-reports/${p}.md.`, { schema: DONE })),
  ),
)
return { renamed: rs.filter(Boolean).reduce((n, r) => n + r.renamed, 0) }
