"""Run a workflow script with stubbed ``agent()`` calls, before any token is spent.

The script runs in QuickJS (the ``quickjs`` package, an embedded JavaScript engine: no files,
no network, no Node API — the same sandbox a workflow has), with the workflow globals stubbed:
``agent()`` answers, after a turn of the event loop, with the largest answer its schema allows
(every string at its ``maxLength``, every array at its ``maxItems``; without a schema, a
free-text answer of ``FREE_TEXT_CHARS`` characters, marked unbounded); ``parallel()`` and
``pipeline()`` behave as Claude Code documents them; ``Date.now()``, ``Math.random()`` and an
argument-less ``new Date()`` throw, as there. Agents finish one at a time, oldest first, so the
most agents in flight at once is what the script itself lets start together.

What comes out: how many agents ran, the most in flight at once, and the size of the returned
value with those worst-case answers, against the standard's cap and return budget.

Bounds: a time limit, a memory limit, a stack limit and Claude Code's own 1,000 agents per run.
"""

from __future__ import annotations

import json
import time
from typing import Any, NamedTuple

from spawnkit.errors import SpawnkitError

FREE_TEXT_CHARS = 4000
MAX_AGENTS = 1000  # Claude Code's cap per workflow run
MEMORY_BYTES = 256 * 1024 * 1024
STACK_BYTES = 1024 * 1024
DEFAULT_SECONDS = 10.0

HARNESS = r"""
var __sk = { count: 0, inflight: 0, peak: 0, queue: [], phases: [], free: 0, notes: [],
             done: false, result: undefined, error: null };
function __skText(n) { var s = ''; while (s.length < n) s += 'x'; return s.slice(0, n); }
function __skFake(schema, depth) {
  if (!schema || typeof schema !== 'object' || depth > 30) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) {
    var longest = schema.enum[0];
    for (var i = 1; i < schema.enum.length; i++)
      if (JSON.stringify(schema.enum[i]).length > JSON.stringify(longest).length) longest = schema.enum[i];
    return longest;
  }
  var branches = schema.anyOf || schema.oneOf;
  if (Array.isArray(branches) && branches.length) return __skFake(branches[0], depth + 1);
  var type = schema.type;
  if (Array.isArray(type)) type = type.filter(function (t) { return t !== 'null'; })[0] || 'null';
  if (!type) type = schema.properties ? 'object' : schema.items ? 'array' : 'string';
  if (type === 'object') {
    var out = {}, props = schema.properties || {};
    for (var key in props) out[key] = __skFake(props[key], depth + 1);
    return out;
  }
  if (type === 'array') {
    var n = typeof schema.maxItems === 'number' ? schema.maxItems : 3;
    if (typeof schema.maxItems !== 'number') __sk.free++;
    var items = [];
    for (var j = 0; j < Math.min(n, 1000); j++) items.push(__skFake(schema.items || {}, depth + 1));
    return items;
  }
  if (type === 'string') {
    if (typeof schema.maxLength === 'number') return __skText(Math.min(schema.maxLength, 100000));
    __sk.free++;
    return __skText(200);
  }
  if (type === 'integer' || type === 'number') return typeof schema.maximum === 'number' ? schema.maximum : 0;
  if (type === 'boolean') return true;
  return null;
}
globalThis.agent = function (prompt, opts) {
  if (__sk.count >= %(max_agents)d) throw new Error('more than %(max_agents)d agents in one run');
  __sk.count++; __sk.inflight++;
  if (__sk.inflight > __sk.peak) __sk.peak = __sk.inflight;
  var schema = opts && opts.schema;
  return new Promise(function (resolve) {
    __sk.queue.push(function () {
      __sk.inflight--;
      if (schema) { resolve(__skFake(schema, 0)); } else { __sk.free++; resolve(__skText(%(free)d)); }
    });
  });
};
globalThis.parallel = function (thunks) {
  return Promise.all(thunks.map(function (thunk) {
    return Promise.resolve().then(thunk).catch(function () { return null; });
  }));
};
globalThis.pipeline = function (items) {
  var stages = Array.prototype.slice.call(arguments, 1);
  return Promise.all(items.map(function (item, index) {
    return stages.reduce(function (previous, stage) {
      return previous.then(function (value) { return stage(value, item, index); });
    }, Promise.resolve(item)).catch(function () { return null; });
  }));
};
globalThis.phase = function (title) { __sk.phases.push(String(title)); };
globalThis.log = function () {};
globalThis.workflow = function (name) {
  __sk.notes.push('workflow(' + JSON.stringify(typeof name === 'string' ? name : 'scriptPath') +
                  ') was not run; it returned null here');
  return Promise.resolve(null);
};
globalThis.budget = { total: null, spent: function () { return 0; },
                      remaining: function () { return Infinity; } };
Math.random = function () { throw new Error('Math.random() is not available in a workflow script'); };
(function () {
  var RealDate = Date;
  globalThis.Date = function () {
    if (arguments.length === 0) throw new Error('new Date() without arguments is not available in a workflow script');
    var args = [null].concat(Array.prototype.slice.call(arguments));
    return new (Function.prototype.bind.apply(RealDate, args))();
  };
  globalThis.Date.parse = RealDate.parse; globalThis.Date.UTC = RealDate.UTC;
  globalThis.Date.prototype = RealDate.prototype;
  globalThis.Date.now = function () { throw new Error('Date.now() is not available in a workflow script'); };
})();
"""


class Run(NamedTuple):
    agents: int
    peak: int  # most agents in flight at once
    result: str | None  # the returned value as JSON (None: nothing returned)
    unbounded: int  # answers (or parts) with no size bound in their schema
    phases: list[str]
    notes: list[str]
    error: str | None  # what the script threw, or why it did not finish


def body_of(text: str) -> str:
    """The script with its leading ``export`` dropped (a workflow's body runs as a function)."""
    from spawnkit.lint.workflow import parse
    from spawnkit.lint.workflow.script import Script, meta_declarator

    parsed = parse.parse(text)
    if parsed.tree is None:
        raise SpawnkitError(f"the script could not be read: {parsed.problem}")
    script = Script(parsed.source, parsed.tree)
    if script.error is not None:
        line, _ = script.position(script.error)
        raise SpawnkitError(
            f"the script is not plain JavaScript (line {line}); run `spawnkit lint` on it first"
        )
    first = script.statements[0] if script.statements else None
    if first is None or meta_declarator(first, parsed.source) is None:
        raise SpawnkitError(
            "the script does not start with `export const meta = {…}`; run `spawnkit lint` on it"
        )
    source = parsed.source
    keyword = first.child(0)  # `export`
    # QuickJS (the quickjs package's engine) refuses `await` as the statement right after a
    # function declaration in an async function ("expecting ';'"); an empty statement after each
    # declaration changes nothing in the script and avoids it.
    cuts = [(keyword.start_byte, keyword.end_byte, b"")]
    cuts += [(fn.end_byte, fn.end_byte, b";") for fn in script.by_type["function_declaration"]]
    out = bytearray(source)
    for start, end, insert in sorted(cuts, reverse=True):
        out[start:end] = insert
    return bytes(out).decode("utf-8", "replace")


def run(text: str, args: Any = None, seconds: float = DEFAULT_SECONDS) -> Run:
    """Run the workflow script ``text`` with stubbed agents (see the module docstring)."""
    try:
        import quickjs
    except ImportError:
        raise SpawnkitError(
            "`spawnkit workflow check` needs the quickjs package: pip install 'spawnkit[check]'"
        ) from None
    body = body_of(text)
    ctx = quickjs.Context()
    ctx.set_memory_limit(MEMORY_BYTES)
    ctx.set_max_stack_size(STACK_BYTES)
    ctx.set_time_limit(seconds)
    ctx.eval(HARNESS % {"max_agents": MAX_AGENTS, "free": FREE_TEXT_CHARS})
    ctx.set("__skArgs", json.dumps(args) if args is not None else "")
    ctx.eval("globalThis.args = __skArgs === '' ? undefined : JSON.parse(__skArgs);")
    wrapped = (
        "(async function () {\n" + body + "\n})().then("
        "function (r) { __sk.done = true; __sk.result = r; },"
        "function (e) { __sk.done = true; __sk.error = String(e && e.message || e); });"
    )
    error = None
    deadline = time.monotonic() + seconds
    too_slow = SpawnkitError(
        f"the script did not finish within {seconds:g} s (a loop that never ends?); "
        "raise the limit with --seconds"
    )

    def step(code: str) -> Any:
        # QuickJS's time limit runs from the start of each call: keep one deadline for them all
        left = deadline - time.monotonic()
        if left <= 0:
            raise too_slow
        ctx.set_time_limit(left)
        return ctx.eval(code)

    try:
        step(wrapped)
        while True:
            # a job (the code after an `await`) runs under the limit the last call set: renew it
            while step("0") is not None and ctx.execute_pending_job():
                pass
            if step("__sk.done") or not step("__sk.queue.length"):
                break
            step("__sk.queue.shift()()")
    except quickjs.JSException as exc:
        reason = str(exc).split("\n")[0]
        if "interrupted" in reason:
            raise too_slow from None
        error = reason
    except quickjs.StackOverflow:
        error = "stack overflow (endless recursion?)"
    ctx.set_time_limit(-1)
    done = bool(ctx.eval("__sk.done"))
    if error is None:
        error = ctx.eval("__sk.error") or None
    if error == "interrupted":
        raise too_slow
    if error is None and not done:
        error = "the script never finished: it waits on something no agent resolves"
    result = ctx.eval("__sk.done && __sk.result !== undefined ? JSON.stringify(__sk.result) : null")
    return Run(
        int(ctx.eval("__sk.count")),
        int(ctx.eval("__sk.peak")),
        result,
        int(ctx.eval("__sk.free")),
        json.loads(ctx.eval("JSON.stringify(__sk.phases)")),
        json.loads(ctx.eval("JSON.stringify(__sk.notes)")),
        error,
    )
