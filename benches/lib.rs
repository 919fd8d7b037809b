//! Shared helpers for the benchmarks (made real by the benchmark issue).
