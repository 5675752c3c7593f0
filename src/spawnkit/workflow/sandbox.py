"""The child process of ``spawnkit workflow check``: one workflow script, run under hard limits.

``spawnkit.workflow.check`` starts this file as ``python -I -S sandbox.py`` (standard library
only: nothing from the environment, the working folder or site-packages is imported) and
writes one JSON request on its stdin; this process answers with one JSON line on stdout.

Before any of the script is read by the engine, the process limits itself, for good (soft and
hard limits alike, so nothing in it can raise them again): a timer at the wall-clock deadline
(SIGALRM, whose default action ends the process), CPU seconds (``RLIMIT_CPU``: SIGXCPU, then
SIGKILL), address space (``RLIMIT_AS``: the whole process, engine and Python, stays under it,
so its RSS does too), stack, no core file and no file writes. The parent kills the process
group a second after the deadline as well. The engine itself (quickjs-ng's ``_quickjs``,
loaded from the file the parent names, so an older ``quickjs`` package in the same environment
cannot shadow it) runs with a heap limit and a stack limit. Its own time limit is not used:
the binding refuses to call a Python function while one is set, and ``agent()`` is one.

The accounting lives here, in Python: ``agent()`` calls the host function ``start``, which
counts the agent, its place in flight and the peak; agents finish only when this loop
finishes them (oldest first, when the script can make no progress without an answer). The
script sees the workflow globals and nothing else: the host functions are taken off
``globalThis`` by the harness before the script is compiled, and the harness's own state sits
in a closure. What the script may do to the globals it can see (replace ``agent``, patch
``Promise``) changes only its own progress, never the counts.
"""

from __future__ import annotations

import json
import math
import re
import signal
import sys
from collections import deque
from typing import Any

# The harness: evaluated before the script; returns the control function the host drives.
# Every intrinsic it needs later is captured now, before the script can replace it.
HARNESS = r"""
(function (limits) {
  'use strict';
  var start = globalThis.__skStart, phaseOut = globalThis.__skPhase, noteOut = globalThis.__skNote;
  delete globalThis.__skStart; delete globalThis.__skPhase; delete globalThis.__skNote;
  var stringify = JSON.stringify, parse = JSON.parse, apply = Reflect.apply, Str = String;
  var Err = Error, RangeErr = RangeError, P = Promise, then = P.prototype.then;
  var strSlice = String.prototype.slice;
  var MapCtor = Map, mapGet = Map.prototype.get, mapSet = Map.prototype.set,
      mapDelete = Map.prototype.delete;
  var pending = new MapCtor();
  var state = 'idle', value, failure = '';

  // A string handed to the host is made flat first: the binding cannot convert a rope (what
  // quickjs-ng makes of a long concatenation) into a Python str.
  function flat(s) { return apply(strSlice, Str(s), [0]); }
  function text(e) {
    var m = e !== null && typeof e === 'object' && 'message' in e ? e.message : e;
    return flat(m === undefined || m === '' ? e : m);
  }
  globalThis.agent = function agent(prompt, opts) {
    var schema = opts && opts.schema, json = '';
    if (schema) { json = stringify(schema); if (typeof json !== 'string') json = 'null'; }
    var id = start(flat(json));
    if (id < 0) throw new Err('more than ' + limits.maxAgents + ' agents in one run');
    return new P(function (resolve) { apply(mapSet, pending, [id, resolve]); });
  };
  globalThis.parallel = function parallel(thunks) {
    return P.all(thunks.map(function (thunk) {
      return P.resolve().then(thunk).catch(function () { return null; });
    }));
  };
  globalThis.pipeline = function pipeline(items) {
    var stages = Array.prototype.slice.call(arguments, 1);
    return P.all(items.map(function (item, index) {
      return stages.reduce(function (previous, stage) {
        return previous.then(function (v) { return stage(v, item, index); });
      }, P.resolve(item)).catch(function () { return null; });
    }));
  };
  globalThis.phase = function phase(title) { phaseOut(flat(title)); };
  globalThis.log = function log() {};
  globalThis.workflow = function workflow(name) {
    noteOut(flat('workflow(' + stringify(typeof name === 'string' ? name : 'scriptPath') +
                 ') was not run; it returned null here'));
    return P.resolve(null);
  };
  globalThis.budget = { total: null, spent: function () { return 0; },
                        remaining: function () { return Infinity; } };
  globalThis.args = limits.args === '' ? undefined : parse(limits.args);
  Math.random = function () { throw new Err('Math.random() is not available in a workflow script'); };
  (function () {
    var RealDate = Date;
    globalThis.Date = function () {
      if (arguments.length === 0) throw new Err('new Date() without arguments is not available in a workflow script');
      var a = [null].concat(Array.prototype.slice.call(arguments));
      return new (Function.prototype.bind.apply(RealDate, a))();
    };
    globalThis.Date.parse = RealDate.parse; globalThis.Date.UTC = RealDate.UTC;
    globalThis.Date.prototype = RealDate.prototype;
    globalThis.Date.now = function () { throw new Err('Date.now() is not available in a workflow script'); };
  })();

  // JSON with a depth limit: the replacer sees each holder before the engine recurses into it.
  function serialise(v) {
    var depth = new MapCtor(), tooDeep = {};
    function replacer(key, item) {
      var d = (apply(mapGet, depth, [this]) || 0) + 1;
      if (item !== null && typeof item === 'object') {
        if (d > limits.maxDepth) throw tooDeep;
        apply(mapSet, depth, [item, d]);
      }
      return item;
    }
    try {
      var out = stringify(v, replacer);
    } catch (e) {
      if (e === tooDeep || e instanceof RangeErr) return 'D';
      return flat('E' + text(e));
    }
    if (typeof out !== 'string') return 'N';
    if (out.length > limits.maxResult) return flat('L' + out.length);
    return flat('R' + out);
  }

  return function control(op, a, b) {
    if (op === 'start') {
      state = 'running';
      apply(then, a(), [function (r) { state = 'done'; value = r; },
                        function (e) { state = 'failed'; failure = text(e); }]);
      return state;
    }
    if (op === 'state') return state;
    if (op === 'failure') return failure;
    if (op === 'finish') {
      var resolve = apply(mapGet, pending, [a]);
      apply(mapDelete, pending, [a]);
      if (typeof resolve === 'function') resolve(parse(b));
      return state;
    }
    if (op === 'result') return value === undefined ? 'N' : serialise(value);
    throw new Err('unknown control ' + op);
  };
})
"""

MAX_MESSAGE = 300  # characters of an error message passed on
MAX_PHASES = 1000
MAX_ANSWER_CHARS = 1_000_000  # one stubbed answer; beyond it the schema is reported instead
_LINE = re.compile(r"<input>:(\d+)")


class Stop(Exception):
    """The run ends here: ``kind`` is syntax (the script does not compile) or answer (a schema
    allows a stubbed answer too large to build)."""

    def __init__(self, kind: str, message: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line


# --- limits -----------------------------------------------------------------------------


def limit_process(seconds: float, address_space: int) -> None:
    """Hard limits on this process (see the module docstring); POSIX only."""
    try:
        import resource
    except ImportError:  # Windows: the parent's wall-clock kill is the only limit
        return
    cpu = math.ceil(seconds) + 1

    def lower(which: int, value: int) -> None:
        soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass  # a limit the platform does not have

    soft_cpu, hard_cpu = resource.getrlimit(resource.RLIMIT_CPU)
    try:
        top = hard_cpu if hard_cpu != resource.RLIM_INFINITY else cpu + 1
        resource.setrlimit(resource.RLIMIT_CPU, (min(cpu, top), min(cpu + 1, top)))
    except (ValueError, OSError):
        pass
    lower(resource.RLIMIT_AS, address_space)
    lower(resource.RLIMIT_STACK, 8 * 1024 * 1024)
    lower(resource.RLIMIT_CORE, 0)
    lower(resource.RLIMIT_FSIZE, 0)
    for name in ("SIGALRM", "SIGXCPU"):  # their default action ends the process: keep it so
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))


def load_engine(path: str) -> Any:
    """quickjs-ng's ``_quickjs`` extension, from its own file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_quickjs", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- stubbed answers ----------------------------------------------------------------------


class TooLarge(Exception):
    pass


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _truthy(value: Any) -> bool:
    """JavaScript's truthiness of a JSON value (``{}`` and ``[]`` are true there)."""
    if value is None or value is False:
        return False
    if _number(value):
        return value == value and value != 0
    if isinstance(value, str):
        return value != ""
    return True


class Answers:
    """The largest answer a schema allows, built on the host side (the script cannot see the
    count of unbounded parts): every string at its ``maxLength``, every array at its
    ``maxItems``; without a schema, free text of ``free`` characters."""

    def __init__(self, free: int) -> None:
        self.free = free
        self.unbounded = 0
        self._size = 0

    def answer(self, schema_json: str) -> str:
        self._size = 0
        if schema_json == "":
            self.unbounded += 1
            return json.dumps("x" * self.free)
        try:
            schema = json.loads(schema_json)
        except (ValueError, RecursionError):
            schema = None
        return json.dumps(self._fake(schema, 0))

    def _grow(self, n: int) -> None:
        self._size += n
        if self._size > MAX_ANSWER_CHARS:
            raise TooLarge

    def _fake(self, schema: Any, depth: int) -> Any:
        if not isinstance(schema, dict) or depth > 30:
            return None
        if "const" in schema:
            self._grow(len(json.dumps(schema["const"])))
            return schema["const"]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            longest = enum[0]
            for option in enum[1:]:
                if len(json.dumps(option)) > len(json.dumps(longest)):
                    longest = option
            self._grow(len(json.dumps(longest)))
            return longest
        branches = schema.get("anyOf") if _truthy(schema.get("anyOf")) else schema.get("oneOf")
        if isinstance(branches, list) and branches:
            return self._fake(branches[0], depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((t for t in kind if t != "null"), None)
            kind = kind if _truthy(kind) else "null"
        if not _truthy(kind):
            kind = (
                "object"
                if _truthy(schema.get("properties"))
                else "array"
                if _truthy(schema.get("items"))
                else "string"
            )
        if kind == "object":
            props = schema.get("properties")
            props = props if _truthy(props) else {}
            if isinstance(props, list):
                props = {str(i): v for i, v in enumerate(props)}
            out = {}
            for key, sub in props.items() if isinstance(props, dict) else ():
                self._grow(len(key) + 4)
                out[key] = self._fake(sub, depth + 1)
            return out
        if kind == "array":
            most = schema.get("maxItems")
            if not _number(most):
                self.unbounded += 1
                most = 3
            count = 0 if most != most else max(0, math.ceil(min(most, 1000)))
            items = schema.get("items")
            items = items if _truthy(items) else {}
            out_items = []
            for _ in range(count):
                self._grow(1)
                out_items.append(self._fake(items, depth + 1))
            return out_items
        if kind == "string":
            most = schema.get("maxLength")
            if _number(most):
                n = min(most, 100_000)
                n = int(n) if n == n and n > 0 else 0
            else:
                self.unbounded += 1
                n = 200
            self._grow(n)
            return "x" * n
        if kind in ("integer", "number"):
            most = schema.get("maximum")
            return most if _number(most) else 0
        if kind == "boolean":
            return True
        return None


# --- the run --------------------------------------------------------------------------------


class Host:
    """The host side of the workflow API: the counts the report gives."""

    def __init__(self, max_agents: int, free: int) -> None:
        self.max_agents = max_agents
        self.agents = 0
        self.in_flight = 0
        self.peak = 0
        self.waiting: deque[tuple[int, str]] = deque()  # (id, schema JSON), oldest first
        self.phases: list[str] = []
        self.notes: list[str] = []
        self.answers = Answers(free)

    def start(self, schema_json: Any) -> int:
        if self.agents >= self.max_agents:
            return -1
        self.agents += 1
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        self.waiting.append((self.agents, schema_json if isinstance(schema_json, str) else ""))
        return self.agents

    def finish_oldest(self) -> tuple[int, str]:
        """The agent that answers next, and its answer."""
        number, schema_json = self.waiting.popleft()
        self.in_flight -= 1
        try:
            return number, self.answers.answer(schema_json)
        except TooLarge:
            raise Stop(
                "answer",
                f"agent #{number}'s schema allows an answer of more than "
                f"{MAX_ANSWER_CHARS:,} characters; bound it with maxLength and maxItems",
            ) from None

    def phase(self, title: Any) -> None:
        if len(self.phases) < MAX_PHASES:
            self.phases.append(str(title)[:MAX_MESSAGE])

    def note(self, text: Any) -> None:
        if len(self.notes) < MAX_PHASES:
            self.notes.append(str(text)[:MAX_MESSAGE])


def _safe(fn: Any) -> Any:
    """A host function the engine may call: it never raises into the engine."""

    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except Exception:  # noqa: BLE001 - a host callback must not throw into QuickJS
            return -1

    return call


def first_line(text: str) -> str:
    return (text.split("\n", 1)[0] if text else "")[:MAX_MESSAGE]


OUT_OF_MEMORY = "the script ran out of memory (over the check's memory limit)"


STACK_OVERFLOW = "stack overflow (endless recursion?)"


def classify(exc: Exception) -> str:
    """The one-line error to report for an exception out of the engine."""
    head = first_line(str(exc))
    if head == "null":  # no memory left even for the error object
        return OUT_OF_MEMORY
    if type(exc).__name__ == "StackOverflow":
        return STACK_OVERFLOW
    return plain(head)


def plain(message: str) -> str:
    """The engine's words for its own limits, said as the check's."""
    if "out of memory" in message:
        return OUT_OF_MEMORY
    if "stack size exceeded" in message:
        return STACK_OVERFLOW
    return message


def run(request: dict[str, Any]) -> dict[str, Any]:
    quickjs = load_engine(request["engine"])
    host = Host(int(request["max_agents"]), int(request["free_chars"]))
    # threw: the error is the script's own exception (else a limit of the check stopped it)
    reply: dict[str, Any] = {"stop": None, "error": None, "threw": False, "result": None}

    ctx = quickjs.Context()
    ctx.set_memory_limit(int(request["heap"]))
    ctx.set_max_stack_size(int(request["stack"]))

    try:
        ctx.add_callable("__skStart", _safe(host.start))
        ctx.add_callable("__skPhase", _safe(host.phase))
        ctx.add_callable("__skNote", _safe(host.note))
        limits = {
            "maxAgents": host.max_agents,
            "maxDepth": int(request["max_depth"]),
            "maxResult": int(request["max_result"]),
            "args": request["args"] if request["args"] is not None else "",
        }
        control = ctx.eval(HARNESS)
        control = control(ctx.parse_json(json.dumps(limits)))
        try:
            main = ctx.eval("(async function () {\n" + request["body"] + "\n})")
        except quickjs.JSException as exc:
            head = first_line(str(exc))
            if head.startswith("SyntaxError"):
                found = _LINE.search(str(exc))
                line = max(1, int(found.group(1)) - 1) if found else 0
                raise Stop("syntax", head, line) from None
            if classify(exc) == STACK_OVERFLOW:
                raise Stop("syntax", "it nests too deeply for the engine to compile it") from None
            raise
        control("start", main)
        while True:
            while ctx.execute_pending_job():
                pass
            state = control("state")
            if state != "running" or not host.waiting:
                break
            number, answer = host.finish_oldest()
            control("finish", number, answer)
        if state == "failed":
            reply["error"] = plain(first_line(control("failure"))) or "the script threw"
            reply["threw"] = reply["error"] != OUT_OF_MEMORY
        elif state == "running":
            reply["error"] = "the script never finished: it waits on something no agent resolves"
        else:
            serialised = control("result")
            tag, body = serialised[:1], serialised[1:]
            if tag == "R":
                reply["result"] = body
            elif tag == "D":
                reply["error"] = (
                    f"the result nests deeper than {request['max_depth']} levels; a workflow "
                    "result is JSON for the orchestrator: return counts, statuses and paths"
                )
            elif tag == "L":
                reply["error"] = (
                    f"the result is {int(body):,} characters as JSON, over the "
                    f"{int(request['max_result']):,} this check reads (Claude Code passes on at "
                    "most 100,000)"
                )
            elif tag == "E":
                reply["error"] = "the result cannot be turned into JSON: " + first_line(body)
                reply["threw"] = True
    except Stop as stop:
        if stop.kind == "answer":
            reply["error"] = stop.message
        else:
            reply.update(stop=stop.kind, error=stop.message or None, line=stop.line)
    except quickjs.JSException as exc:  # StackOverflow is one too
        reply["error"] = classify(exc)
        reply["threw"] = reply["error"] != OUT_OF_MEMORY
    except MemoryError:
        reply["error"] = OUT_OF_MEMORY
    reply.update(
        agents=host.agents,
        peak=host.peak,
        unbounded=host.answers.unbounded,
        phases=host.phases,
        notes=host.notes,
    )
    return reply


def main() -> None:
    request = json.loads(sys.stdin.buffer.read())
    limit_process(float(request["seconds"]), int(request["address_space"]))
    try:
        reply = run(request)
    except MemoryError:
        reply = {"stop": None, "error": OUT_OF_MEMORY}
    out = json.dumps(reply, ensure_ascii=True).encode("ascii")
    sys.stdout.buffer.write(out + b"\n")
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
