"""Text that is not the file's own instruction is never read as one (issue 34).

Each file below is a small, realistic version of a shape that lint read as an orchestrator
with confident CM001 errors on real files nobody here had tuned on: a reference's type
definition, a command that writes spawn instructions into *other* files, a reference table, an
example under "when you …" guidance, and a persona's request to someone else. Each test failed
on main before issue 34 (the file was an orchestrator by default readings, and CM001 reported
it); each has a control beside it — the same words as the file's own instruction — that must
still be read as spawning, so the fix is not bought with recall.
"""

from __future__ import annotations

import pytest

from spawnkit.lint.analysis import analyse
from spawnkit.lint.document import Document
from spawnkit.lint.engine import lint_document
from spawnkit.lint.evidence import DEFAULT

TRACING_REFERENCE = """\
---
name: agent-tracing
description: Reference for the spans our collector records for Claude Code sessions.
---
# Tracing reference

Every span the collector records has one of the shapes below. Use them when you write
dashboard queries.

## Sub-agent spans

The hook records one span for each call that starts a sub-agent. Its payload:

```typescript
interface SubagentSpan {
  tool_name: "Task";
  subagent_type: string;
  description: string;
  prompt: string;
  started_at: number;
  tokens_out?: number;
}
```

Group spans by `subagent_type` to see which agents ran longest.
"""

# the same span, as a JSON Schema in a Python reference
SPAN_SCHEMA = """\
---
name: span-schema
description: The JSON Schema of a sub-agent span, for validators.
---
# Span schema

```json
{
  "type": "object",
  "properties": {
    "subagent_type": {"type": "string"},
    "prompt": {"type": "string"},
    "description": {"type": "string"}
  },
  "required": ["subagent_type", "prompt"]
}
```
"""

# a sketch of a real call, for the controls: a literal value, not a type
CALL_SKETCH = """\
---
name: review-fanout
description: Review the diff with a reviewer sub-agent.
---
# Review

Start the reviewer:

```typescript
await Task({
  subagent_type: "code-reviewer",
  description: "Review the diff",
  prompt: "Review the staged diff. Reply with at most 300 tokens.",
});
```
"""

COMMAND_WRITER = """\
---
description: Scaffold a review command for each package in the monorepo
---
# Scaffold review commands

For each package under `packages/`, create `.claude/commands/review-<package>.md` with this
content:

```markdown
---
description: Review the <package> package
---
Use the Task tool to spawn a code-reviewer sub-agent (subagent_type: "code-reviewer") on
`packages/<package>`, and reply with its summary.
```

When every file is written, print the list of commands you created.
"""

HEREDOC_WRITER = """\
---
description: Install the audit command into this project
---
# Install the audit command

Run:

```bash
mkdir -p .claude/commands
cat > .claude/commands/audit.md <<'EOF'
---
description: Audit the repository
---
Launch three auditor sub-agents in parallel with Task(subagent_type="auditor"), one per
top-level folder.
EOF
```

Then tell the user to run `/audit`.
"""

ITEMS_WRITER = """\
---
description: Add a verification section to every command file
---
# Add verification to commands

Append these lines to each file in `.claude/commands/`:

- Spawn a test-runner sub-agent with the Task tool after the last step.
- Wait for its report before you answer.

Then list the files you changed.
"""

TEAM_TABLE = """\
---
name: team-design
description: How to size and staff an agent team for a project.
---
# Team design reference

| Situation | What to choose |
|---|---|
| When spawning teammates with the Agent tool, choose | `general-purpose`, or `Explore` to read |
| A team larger than five | Split it under two leads |
| Work that touches one file | Keep it in the main session |
"""

WHEN_YOU_GUIDANCE = """\
---
name: research-habits
description: Habits for research tasks in this repository.
---
# Research in this repository

When you need to understand an unfamiliar part of the codebase, break the question down
before you read files. For example:

- Spawn three Explore agents, one for each top-level directory.
- Launch a sub-agent to trace the request path while you read the tests.

Keep what you learn in `notes/research.md`.
"""

PERSONA = """\
---
name: project-manager
description: Project manager persona that tracks the sprint board and staffing.
---
You are the project manager of this team. You track the sprint board, keep the backlog
groomed and report progress to the orchestrator.

## Staffing

When the backlog grows faster than the team closes it, ask the orchestrator to spawn two more
developer agents. If a task needs a security review, request that the orchestrator dispatch
the security-reviewer agent.

Never write code yourself.
"""


def lint(text: str, path: str, preview: bool = False):
    return lint_document(text, path, reader="pyyaml", preview=preview)


def asserted(text: str, path: str) -> set[str]:
    """What the default tier asserts about the file: "spawns" and the CM errors."""
    result = lint(text, path)
    out = {d.code for d in result.diagnostics if d.code.startswith("CM")}
    if result.spawn_tier == DEFAULT:
        out.add("spawns")
    return out


@pytest.mark.parametrize(
    ("text", "path"),
    [
        (TRACING_REFERENCE, "skills/agent-tracing/SKILL.md"),
        (SPAN_SCHEMA, "skills/span-schema/SKILL.md"),
    ],
    ids=["typescript-interface", "json-schema"],
)
def test_a_type_definition_or_schema_is_neither_a_call_nor_a_prompt(text, path):
    assert asserted(text, path) == set()
    analysis = analyse(Document(path, text, "pyyaml"))
    assert analysis.marks == [] and analysis.prompts == []


def test_control_a_yaml_call_sketch_with_a_bare_value_is_still_a_call():
    text = (
        "---\nname: scan\ndescription: Scan the repo.\n---\n# Scan\n\n"
        "```yaml\ntool: Task\nsubagent_type: Explore\ndescription: Map the repository\n```\n"
    )
    analysis = analyse(Document("skills/scan/SKILL.md", text, "pyyaml"))
    assert [m.family for m in analysis.marks] == ["call-in-code"] and analysis.foreign == []


def test_control_a_call_sketch_with_literal_values_is_still_a_call_and_a_prompt():
    path = "skills/review-fanout/SKILL.md"
    analysis = analyse(Document(path, CALL_SKETCH, "pyyaml"))
    assert [m.family for m in analysis.marks] == ["call-in-code"]
    assert len(analysis.prompts) == 1


@pytest.mark.parametrize(
    "text",
    [COMMAND_WRITER, HEREDOC_WRITER, ITEMS_WRITER],
    ids=["fenced-file-content", "heredoc", "appended-items"],
)
def test_spawn_text_the_file_writes_into_another_file_is_not_its_instruction(text):
    path = ".claude/commands/scaffold.md"
    assert asserted(text, path) == set()
    assert not lint(text, path, preview=True).orchestrator


def test_control_the_same_steps_as_the_commands_own_instruction_still_spawn():
    text = ITEMS_WRITER.replace(
        "Append these lines to each file in `.claude/commands/`:", "For each command file:"
    )
    assert lint(text, ".claude/commands/scaffold.md", preview=True).orchestrator


def test_a_reference_table_row_is_not_an_instruction():
    path = "skills/team-design/SKILL.md"
    assert asserted(TEAM_TABLE, path) == set()
    assert not lint(TEAM_TABLE, path, preview=True).orchestrator


def test_control_an_order_in_a_steps_table_still_spawns():
    text = TEAM_TABLE.replace(
        "| When spawning teammates with the Agent tool, choose |",
        "| Spawn two teammates with the Agent tool, and choose |",
    )
    assert lint(text, "skills/team-design/SKILL.md", preview=True).orchestrator


def test_examples_under_when_you_guidance_are_not_instructions():
    path = "skills/research-habits/SKILL.md"
    assert asserted(WHEN_YOU_GUIDANCE, path) == set()
    assert not lint(WHEN_YOU_GUIDANCE, path, preview=True).orchestrator


def test_control_the_same_steps_as_an_order_still_spawn():
    text = WHEN_YOU_GUIDANCE.replace(" For example:", " Then:")
    assert lint(text, "skills/research-habits/SKILL.md", preview=True).orchestrator


def test_a_personas_request_to_someone_else_is_not_its_instruction():
    path = ".claude/agents/project-manager.md"
    assert asserted(PERSONA, path) == set()
    assert not lint(PERSONA, path, preview=True).orchestrator


def test_control_the_persona_told_to_spawn_itself_still_spawns():
    text = PERSONA.replace("ask the orchestrator to spawn", "spawn")
    assert lint(text, ".claude/agents/project-manager.md", preview=True).orchestrator
