"""Repositories kept for independent checks: no corpus, fixture or vendored file may come from
them (the lint corpus, tests/lint/test_real_corpus.py; the audit's real transcripts,
tests/audit/test_real_vendored.py). One list, so both corpora leave out the same ones."""

from __future__ import annotations

# Kept for the independent check of lint accuracy: no corpus file may come from these.
RESERVED = {
    "EveryInc/compound-engineering-plugin",
    "GatoaoCubo/codexa-core",
    "Mi9-LLC/agent-skills",
    "SuperClaude-Org/SuperClaude_Framework",
    "VoltAgent/awesome-claude-code-subagents",
    "Yeachan-Heo/oh-my-claudecode",
    "affaan-m/everything-claude-code",
    "anthropics/claude-code",
    "anthropics/skills",
    "automazeio/ccpm",
    "disler/infinite-agentic-loop",
    "gsd-build/get-shit-done",
    "humanlayer/humanlayer",
    "lpasqualis/lpclaude",
    "mehdic/bazinga",
    "obra/superpowers",
    "parcadei/Continuous-Claude-v3",
    "ruvnet/claude-flow",
    "team-attention/hoyeon",
    "trailofbits/skills",
    "wshobson/agents",
    "wshobson/commands",
}
# reserved later for the independent check of other features (COMMON.md): kept out as well
RESERVED_LATER = {
    "marot/spotter",
    "codemie-ai/codemie-code",
    "kvsankar/agent-history",
    "simonw/claude-code-transcripts",
}
