// Runs a Claude Code workflow script under Node with the client's globals stubbed, for tests.
//
// stdin: {"script": "<workflow.js text>", "args": <any>, "answers": {"<label>": [<answer>|null, ...]},
//         "delay_ms": 20}
// stdout: {"ok": true, "result": <what the script returned>, "meta": {...}, "calls": [{label, prompt, opts}],
//          "phases": [...], "logs": [...], "peak": <most agents at once>}
//      or {"ok": false, "error": "<message>", ...}
// agent() answers with the next scripted answer for its label (default: a COMPLETE answer) after
// delay_ms; parallel() is a barrier whose failed thunks give null, as in the client. Date.now(),
// Math.random() and new Date() throw, as they do in the client (they would break resume).

const input = JSON.parse(await new Promise((resolve) => {
  let data = ''
  process.stdin.on('data', (chunk) => (data += chunk))
  process.stdin.on('end', () => resolve(data))
}))

const calls = []
const phases = []
const logs = []
let running = 0
let peak = 0
const answers = input.answers ?? {}
const delay = input.delay_ms ?? 20
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function agent(prompt, opts = {}) {
  calls.push({ label: opts.label ?? null, prompt, opts })
  running += 1
  peak = Math.max(peak, running)
  try {
    await sleep(delay)
    const queue = answers[opts.label]
    if (queue && queue.length) return queue.shift()
    return { status: 'COMPLETE', metrics: ['findings=1'], summary: 'done' }
  } finally {
    running -= 1
  }
}
const parallel = (thunks) => Promise.all(thunks.map((thunk) => Promise.resolve().then(thunk).catch(() => null)))
const phase = (title) => phases.push(title)
const log = (message) => logs.push(String(message))

const realDate = Date
const forbid = (what) => () => {
  throw new Error(what + ' is unavailable in workflow scripts')
}
Date.now = forbid('Date.now()')
Math.random = forbid('Math.random()')
globalThis.Date = new Proxy(realDate, {
  construct(target, argv) {
    if (argv.length === 0) throw new Error('new Date() is unavailable in workflow scripts')
    return new target(...argv)
  },
})

const text = input.script
if (!text.startsWith('export const meta = ')) {
  console.log(JSON.stringify({ ok: false, error: 'the script does not start with export const meta' }))
  process.exit(0)
}
const body = text.replace(/^export const meta = /, 'const meta = ') + '\n'
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor
const metaOnly = new Function(text.replace(/^export const meta = /, 'return ').split('\n}\n')[0] + '\n}')
try {
  const run = new AsyncFunction('agent', 'parallel', 'phase', 'log', 'args', 'budget', body)
  const result = await run(agent, parallel, phase, log, input.args, { total: null })
  console.log(JSON.stringify({ ok: true, result, meta: metaOnly(), calls, phases, logs, peak }))
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error.message ?? error), calls, phases, logs, peak }))
}
