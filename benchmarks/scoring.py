"""Precision, recall and F1 over labelled files: one scorer for the lint accuracy benchmarks."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def positives(self) -> int:
        return self.tp + self.fn

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, got: bool, want: bool, where: str) -> None:
        if got and want:
            self.tp += 1
        elif got:
            self.fp += 1
            self.misses.append(f"{where}: reported, labelled clean")
        elif want:
            self.fn += 1
            self.misses.append(f"{where}: missed")
