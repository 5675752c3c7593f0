"""Block structure the rules read."""

from spawnkit.lint.markdown import parse


def test_blocks_keep_file_lines_and_nesting():
    lines = [
        "# Title",  # 10
        "",
        "1. Spawn a sub-agent:",  # 12
        "",
        "   ```text",
        "   prompt line",  # 15
        "   ```",
        "2. Next step",  # 17
        "   continued",
        "",
        "> quoted",  # 20
        "| a | b |",  # 21
        "|---|---|",
        "| c | d |",
        "",
        "    indented code",  # 25
    ]
    blocks = parse(lines, 10)
    kinds = [(b.kind, b.start) for b in blocks]
    assert kinds == [
        ("heading", 10),
        ("item", 12),
        ("code", 15),
        ("item", 17),
        ("quote", 20),
        ("table", 21),
        ("code", 25),
    ]
    assert blocks[2].parent == 1 and blocks[2].text == "prompt line"
    assert blocks[3].text == "Next step\ncontinued" and blocks[1].list_id == blocks[3].list_id
    assert blocks[1].section == ("Title",)
    assert blocks[3].line_of(blocks[3].text.index("continued")) == 18
