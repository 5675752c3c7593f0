"""Exact token counts from Anthropic's ``POST /v1/messages/count_tokens`` (urllib, no SDK).

Only ``spawnkit tokens --exact`` uses this; the hooks never touch the network. Every failure is
raised as ``CountError`` with a one-line reason, so the caller can fall back to the estimate.
"""

import json
import os
import urllib.error
import urllib.request
from collections.abc import Mapping

from spawnkit.tokens import CALIBRATED_MODEL

DEFAULT_MODEL = CALIBRATED_MODEL
DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
TIMEOUT_SECONDS = 3.0

#: count_tokens counts a whole conversation; wrapping the text in one user message adds these
#: tokens. Each is a one-character message's count minus that character (11 - 1 for 4.7's
#: tokenizer, 7 - 1 for 4.6's), from the calibration data's notes. Longer ids that start with a
#: key (dated snapshots) share its value.
MESSAGE_OVERHEAD = {
    "claude-opus-4-7": 10,
    "claude-opus-4-6": 6,
}
#: For any other model: the older tokenizer's wrapper. Subtracting too little errs high.
DEFAULT_OVERHEAD = 6


class CountError(Exception):
    """The API could not give a count; the message says why in one line."""


def message_overhead(model: str) -> int:
    """Tokens the one-message wrapper adds for ``model``."""
    for name, overhead in MESSAGE_OVERHEAD.items():
        if model == name or model.startswith(name + "-"):
            return overhead
    return DEFAULT_OVERHEAD


def count_tokens(
    text: str,
    model: str = DEFAULT_MODEL,
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT_SECONDS,
) -> int:
    """Tokens of ``text`` alone for ``model``, as the API counts them (wrapper subtracted).

    Reads ``ANTHROPIC_API_KEY`` and ``ANTHROPIC_BASE_URL`` from ``env`` (default: the process
    environment). Raises ``CountError`` on any failure.
    """
    env = os.environ if env is None else env
    key = env.get("ANTHROPIC_API_KEY", "").strip()
    if not key:
        raise CountError("ANTHROPIC_API_KEY is not set")
    if not text:
        return 0
    base = (env.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL).strip().rstrip("/")
    if not base.startswith(("https://", "http://")):
        raise CountError(f"ANTHROPIC_BASE_URL must start with https:// or http://, not {base!r}")
    url = f"{base}/v1/messages/count_tokens"
    body = {"model": model, "messages": [{"role": "user", "content": _valid_unicode(text)}]}
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(
        url,
        data=payload,
        method="POST",
        headers={
            "x-api-key": key,
            "anthropic-version": API_VERSION,
            "content-type": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
    except urllib.error.HTTPError as exc:
        raise CountError(f"HTTP {exc.code} from {url}{_api_message(exc)}") from None
    except TimeoutError:
        raise CountError(f"no answer from {url} within {timeout:g} s") from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            raise CountError(f"no answer from {url} within {timeout:g} s") from None
        raise CountError(f"cannot reach {url}: {exc.reason}") from None
    except (OSError, ValueError) as exc:  # connection reset, malformed URL, ...
        raise CountError(f"request to {url} failed: {exc}") from None
    try:
        answer = json.loads(raw)
        total = answer["input_tokens"]
    except (ValueError, TypeError, KeyError):
        raise CountError(f"unexpected answer from {url}: {raw[:80]!r}") from None
    if not isinstance(total, int) or isinstance(total, bool) or total < 0:
        raise CountError(f"unexpected input_tokens from {url}: {total!r}")
    return max(1, total - message_overhead(model))


def _valid_unicode(text: str) -> str:
    """Lone surrogates (bytes kept by ``surrogateescape``) become U+FFFD: JSON must be UTF-8."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "replace")


def _api_message(exc: urllib.error.HTTPError) -> str:
    """The API's own error message, when its body carries one."""
    try:
        detail = json.loads(exc.read())["error"]["message"]
    except (OSError, ValueError, KeyError, TypeError):  # the body is optional decoration
        return ""
    return f": {str(detail)[:200]}"
