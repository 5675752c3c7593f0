"""The words spawn detection reads, kept as data.

A host with its own way to start sub-agents (another tool name, another call key) is one
entry here; :mod:`spawnkit.lint.analysis` builds its patterns from these tuples.
"""

from __future__ import annotations

import re

# tools that start a sub-agent (Claude Code: "Agent", formerly "Task"); also what a skill's
# frontmatter grants or denies
SPAWN_TOOLS = ("Agent", "Task")
# spawn tool names distinctive enough to count alone, without the word "tool" (Codex CLI:
# "spawn_agent", multi-agent v2's "collaborationspawn_agent" / "collaboration.spawn_agent";
# Gemini CLI: "invoke_agent")
SPAWN_TOOL_NAMES = ("spawn_agent", "collaborationspawn_agent", "invoke_agent")
# other hosts' spawn tools, as a frontmatter tool list names them (Gemini CLI's agent "tools",
# Qwen Code's "allowedTools": "agent")
HOST_SPAWN_TOOLS = ("invoke_agent", "agent")
# names only a spawn call carries, in code sketches of one (any language); Claude Code's
# Workflow tool takes a `scriptPath` to the workflow script that starts the agents
SPAWN_CALL_KEYS = ("subagent_type", "fork_context", "scriptPath", *SPAWN_TOOL_NAMES)
# frontmatter keys that grant tools (skills/commands) or list them (agents), and that deny them
GRANT_KEYS = ("allowed-tools", "tools", "allowedTools")
DENY_KEYS = ("disallowed-tools", "disallowedTools")

# what a sub-agent is called
AGENT_NOUNS = ("sub-agent", "subagent", "agent", "worker")
# verbs that start a sub-agent when their object is agent-like: an agent noun, a role
# ("dispatch a reviewer") or a name ("spawn `fix-planner`") — not "spawn the next cycle"
ANY_OBJECT_VERBS = ("spawn", "dispatch")
# what a sub-agent is called by its job: the object of "spawn"/"dispatch", the head of
# "dispatch three reviewers" (each also matches its plural)
ROLE_NOUNS = (
    "reviewer",
    "researcher",
    "explorer",
    "analyst",
    "analyzer",
    "analyser",
    "architect",
    "critic",
    "judge",
    "auditor",
    "specialist",
    "expert",
    "validator",
    "verifier",
    "checker",
    "tester",
    "planner",
    "writer",
    "coder",
    "developer",
    "engineer",
    "designer",
    "fixer",
    "scout",
    "investigator",
    "detective",
    "inspector",
    "coordinator",
    "assistant",
    "helper",
    "teammate",
    "implementer",
    "executor",
    "summarizer",
    "summariser",
    "mapper",
    "voice",
    "persona",
    "instance",
)
# verbs that put a piece of work somewhere: "run every mission in a subagent", "execute the
# research pass inside a fresh sub-agent"
WORK_VERBS = ("run", "execute", "do", "perform", "handle", "process", "put", "place", "isolate")
# how a file names the agent that reads it, as the subject of a spawn verb in the third
# person ("the orchestrator dispatches a fresh verifier sub-agent")
SELF_SUBJECTS = (
    "orchestrator",
    "coordinator",
    "lead agent",
    "main agent",
    "parent agent",
    "lead",
    "parent",
    "main thread",
)
# other agent programs (and where an agent lives): their "agents" are peers or external CLIs,
# not sub-agents this file starts ("a peer Codex agent", "spawn Gemini as a sub-agent")
OTHER_AGENT_PROGRAMS = (
    "codex",
    "gemini",
    "cursor",
    "aider",
    "opencode",
    "copilot",
    "grok",
    "qwen",
    "goose",
    "peer",
    "remote",
    "local",
    "node-local",
    "external",
)
# workers that are threads of a browser or a job system, not agents ("Shared Workers")
NOT_AGENT_WORKERS = ("web", "shared", "dedicated", "service", "deploy", "celery", "background job")
# verbs that start one when their object is a sub-agent or the spawn tool
SPAWN_VERBS = (
    "launch",
    "start",
    "run",
    "kick off",
    "fire off",
    "fan out",
    "spin up",
    "deploy",
    "delegate",
    "hand",
    "route",
    "send",
    "create",
    "invoke",
    "call",
    "use",
    "give",
    "assign",
)
# verbs whose bare object "agents" is too vague ("use agents wisely"): the object must name
# the agent, count it or call it a sub-agent
NAMING_VERBS = ("use", "call", "invoke")
# verbs that hand work *to* an agent ("delegate the review to the code-reviewer agent")
TO_VERBS = ("delegate", "hand", "route", "send", "assign", "give")
# words that count or qualify sub-agents ("three parallel agents", "specialized agents")
QUANTIFIERS = (
    "parallel",
    "multiple",
    "several",
    "many",
    "more",
    "both",
    "independent",
    "specialized",
    "specialised",
    "dedicated",
    "fresh",
    "separate",
    "concurrent",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "n",
)
# nouns after "agent" that make it a thing about agents, not an agent ("agent file")
NOT_AGENT_HEADS = (
    "file",
    "files",
    "definition",
    "definitions",
    "config",
    "configs",
    "configuration",
    "sdk",
    "frontmatter",
    "description",
    "descriptions",
    "template",
    "templates",
    "prompt",
    "prompts",
    "type",
    "types",
    "name",
    "names",
    "context",
    "tool",
    "tools",
    "mode",
    "registry",
    "roster",
    "list",
    "docs",
    "documentation",
    "skill",
    "skills",
    "team",
    "teams",
    "architecture",
    "system",
    "systems",
    "framework",
    "loop",
)
# words that end a noun phrase: the agent noun after them is not the verb's object
PHRASE_BREAKS = (
    "with",
    "for",
    "on",
    "in",
    "to",
    "of",
    "from",
    "by",
    "without",
    "per",
    "and",
    "or",
    "that",
    "which",
    "when",
    "if",
    "as",
    "into",
    "than",
)


def alternation(words: tuple[str, ...]) -> str:
    """``words`` as a regex alternation, longest first, spaces matching any whitespace."""
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)


# --- Japanese, Chinese, Korean ------------------------------------------------------
# These scripts need no spaces and their characters are word characters, so the English
# patterns (built on \b) never see "SubAgentを並列で起動". An instruction there is an agent
# noun as the object or target of a starting verb: Japanese and Korean put the noun first,
# with its particle, and the verb after; Chinese puts the verb first.
CJK_AGENT_NOUNS = (
    "サブエージェント",
    "エージェント",
    "서브에이전트",
    "서브 에이전트",
    "에이전트",
    "子代理",
    "子智能体",
    "智能体",
    "subagent",
    "sub-agent",
    "agent",
)
# a noun is the verb's object or target through one of these (を/に, 를/을/에게/로)
OBJECT_PARTICLES = ("を", "に", "へ", "를", "을", "에게", "로", "으로")
JA_KO_SPAWN_VERBS = (
    # Japanese: launch, call, run, start up, dispatch, delegate, request, assign, use
    "起動",
    "呼び出",
    "実行",
    "立ち上げ",
    "派遣",
    "委任",
    "委譲",
    "依頼",
    "割り当て",
    "使用",
    "使って",
    "使い",
    "活用",
    "走らせ",
    "並列",
    # Korean: run, call, create, delegate, launch, use, start, dispatch, spawn, in parallel
    "실행",
    "호출",
    "생성",
    "위임",
    "띄우",
    "띄워",
    "사용",
    "시작",
    "디스패치",
    "스폰",
    "병렬",
    # the English verb kept in Japanese or Korean prose ("Exploreエージェントを spawn する")
    "spawn",
    "dispatch",
    "launch",
)
# verbs that start an agent even with no particle before them (Korean often drops it)
CJK_STRONG_VERBS = ("起動", "呼び出", "委任", "派遣", "위임", "호출", "스폰", "디스패치")
# Chinese: launch, call, dispatch, assign, create, use, run, delegate (verb first);
# "代理" alone also means a proxy, so Chinese nouns are the unambiguous ones
ZH_SPAWN_VERBS = (
    "启动",
    "啟動",
    "调用",
    "調用",
    "派发",
    "派發",
    "派遣",
    "分派",
    "创建",
    "生成",
    "使用",
    "运行",
    "执行",
    "執行",
    "委派",
    "委托",
)
ZH_AGENT_NOUNS = (
    "子代理",
    "子智能体",
    "智能体",
    "个代理",
    "個代理",
    "subagent",
    "sub-agent",
    "agent",
)
# "in parallel", "at the same time"
CJK_PARALLEL = ("並列", "並行", "同時", "并行", "同时", "병렬", "동시")
# what negates the verb: after it in Japanese and Korean, before it in Chinese
JA_KO_NEGATIONS = (
    "しない",
    "しません",
    "させない",
    "禁止",
    "不要",
    "하지 마",
    "하지마",
    "않",
    "금지",
)
ZH_NEGATIONS = ("不要", "不", "别", "別", "禁止", "无需", "無需", "勿")
# prohibitions that negate the verb at the end of their clause, however far
ZH_CLAUSE_NEGATIONS = ("不要", "不需要", "無需", "无需", "禁止", "切勿", "避免", "不应", "不得")
# French, Portuguese, Spanish, Italian and German verbs that start or hand work to a sub-agent;
# these languages borrow "subagent"/"sub-agent" (or say sous-agent, Subagent), so the noun is the
# anchor and the verb any of these, just before it ("Delega cada tarefa a subagent",
# "Spawne EN PARALLÈLE des subagents", "Bei Bedarf delegiere an Explore Subagent")
LATIN_SPAWN_VERBS = (
    # French
    "lance",
    "lancer",
    "lancez",
    "délègue",
    "déléguer",
    "déléguez",
    "démarre",
    "démarrer",
    "démarrez",
    "spawne",
    "spawner",
    "spawnez",
    "invoque",
    "invoquer",
    "invoquez",
    # Portuguese, Spanish, Italian
    "delega",
    "delegar",
    "delegue",
    "deleguen",
    "delegare",
    "lança",
    "lançar",
    "lanza",
    "lanzar",
    "lancia",
    "lanciare",
    "inicia",
    "iniciar",
    "inicie",
    "avvia",
    "avviare",
    "spawnar",
    "spawnea",
    "spawnear",
    "invoca",
    "invocar",
    "invocare",
    "despacha",
    "despachar",
    "dispara",
    "disparar",
    # German
    "starte",
    "starten",
    "startet",
    "delegiere",
    "delegieren",
    "delegiert",
    "beauftrage",
    "beauftragen",
    "spawnen",
)
LATIN_NEGATIONS = (
    "ne ",
    "n'",
    "pas ",
    "não ",
    "nao ",
    "no ",
    "nunca",
    "jamais",
    "nicht",
    "kein",
    "non ",
    "sin ",
    "sem ",
)
