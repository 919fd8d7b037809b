//! The bench matrix's statistics.
//!
//! On a shared 2-core machine a benchmark's figures vary most between
//! processes (address layout, huge pages, the neighbours' load), so every
//! cell is sampled in several fresh processes of a few rounds each
//! (Kalibera and Jones, "Rigorous Benchmarking in Reasonable Time": repeat
//! at the level where the variance lives). Here:
//!
//! * a cell's figure is the **median over processes** of each process's
//!   median round ([`estimate`]), with a 95 % interval from a
//!   **hierarchical bootstrap** ([`bootstrap`]): resample the processes,
//!   then the rounds within each resampled process;
//! * a ratio that a decision uses is **paired** ([`paired`]): numerator and
//!   denominator from the same process and round, so that what slowed a
//!   round slows both;
//! * two runs (or two code layouts) are compared cell by cell with an
//!   unpaired bootstrap of the ratio ([`compare`]); over thousands of cells
//!   the false discovery rate is held by Benjamini-Hochberg
//!   ([`benjamini_hochberg`]);
//! * a choice between candidates is made outside the noise ([`choose`]):
//!   one replaces another only when its interval clears it, else the
//!   candidates tie and a stated tie-break decides.
//!
//! Every bootstrap is seeded ([`seed_of`]), so the same samples give the
//! same intervals on every machine and every regeneration of a report.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

/// Bootstrap resamples per interval: enough for stable 2.5 % and 97.5 %
/// percentiles (Efron and Tibshirani suggest 1,000 or more for intervals).
pub const RESAMPLES: usize = 2000;

/// The intervals' coverage.
pub const LEVEL: f64 = 0.95;

/// A deciding figure whose interval is wider than this either side of its
/// estimate (as a fraction) is sampled further, and marked unresolved if
/// it stays wider.
pub const RESOLVED_HALF_WIDTH: f64 = 0.03;

/// The false discovery rate a comparison of many cells holds.
pub const FALSE_DISCOVERY_RATE: f64 = 0.05;

/// The median of `v` (the mean of the two middle values for an even
/// length); NaN if empty. Reorders `v`.
pub fn median(v: &mut [f64]) -> f64 {
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    let (_, &mut upper, _) = v.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        return upper;
    }
    let lower = v[..n / 2].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lower + upper) / 2.0
}

/// The `q` quantile of `v` (0.1: the 10th percentile), interpolated
/// linearly between the order statistics; NaN if empty.
pub fn percentile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut sorted = v.to_vec();
    sorted.sort_by(f64::total_cmp);
    quantile(&sorted, q)
}

/// The `q` quantile of sorted `v`, interpolated linearly.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = (sorted.len() - 1) as f64 * q;
    let (low, frac) = (at.floor() as usize, at.fract());
    let high = (low + 1).min(sorted.len() - 1);
    sorted[low] * (1.0 - frac) + sorted[high] * frac
}

/// A cell's figure from its samples, `processes[p][r]` (process `p`,
/// round `r`): the median over processes of each process's median round.
/// Processes without rounds are left out; NaN if none has any.
pub fn estimate(processes: &[Vec<f64>]) -> f64 {
    let mut medians: Vec<f64> = processes
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| median(&mut p.clone()))
        .collect();
    median(&mut medians)
}

/// A figure and its interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The figure ([`estimate`]).
    pub estimate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl Interval {
    /// An interval of one value (nothing to resample).
    pub fn exact(x: f64) -> Interval {
        Interval {
            estimate: x,
            low: x,
            high: x,
        }
    }

    /// Half the interval's width over the estimate: 0.03 is ±3 %.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0 / self.estimate.abs()
    }

    /// Whether the interval is narrow enough to decide
    /// ([`RESOLVED_HALF_WIDTH`]).
    pub fn resolved(&self) -> bool {
        self.half_width() <= RESOLVED_HALF_WIDTH
    }

    /// Whether the whole interval lies above `x`.
    pub fn above(&self, x: f64) -> bool {
        self.low > x
    }

    /// Whether the whole interval lies below `x`.
    pub fn below(&self, x: f64) -> bool {
        self.high < x
    }

    /// The interval of `f(x)` for an increasing `f` (a decreasing one swaps
    /// the ends back into order).
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Interval {
        let (a, b) = (f(self.low), f(self.high));
        Interval {
            estimate: f(self.estimate),
            low: a.min(b),
            high: a.max(b),
        }
    }
}

/// A seed for a bootstrap from the text that names what is resampled (FNV-1a):
/// the same cell gets the same interval in every report.
pub fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The bootstrap distribution of [`estimate`] over `processes`: [`RESAMPLES`]
/// values, each the estimate of a resample that draws the processes with
/// replacement, then within each drawn process its rounds with
/// replacement. Sorted.
///
/// A resample of a process's rounds is kept as how often each round was
/// drawn: its median is then read off the counts in the rounds' sorted
/// order (found once per process), where selecting it from the drawn values
/// was nine tenths of a report's time. The same draws, so the same medians.
fn distribution(processes: &[Vec<f64>], rng: &mut Xoshiro256PlusPlus) -> Vec<f64> {
    // Each process's rounds, and their indices in ascending order of value.
    let processes: Vec<(&[f64], Vec<usize>)> = processes
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut order: Vec<usize> = (0..p.len()).collect();
            order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
            (p.as_slice(), order)
        })
        .collect();
    if processes.is_empty() {
        return Vec::new();
    }
    let longest = processes.iter().map(|(p, _)| p.len()).max().unwrap_or(0);
    let (mut counts, mut medians) = (vec![0u32; longest], vec![0.0; processes.len()]);
    let mut out: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for m in medians.iter_mut() {
                let (p, order) = &processes[rng.random_range(0..processes.len())];
                let counts = &mut counts[..p.len()];
                counts.fill(0);
                for _ in 0..p.len() {
                    counts[rng.random_range(0..p.len())] += 1;
                }
                *m = median_of_counts(p, order, counts);
            }
            median(&mut medians)
        })
        .collect();
    out.sort_by(f64::total_cmp);
    out
}

/// The median of the multiset that holds `values[i]` `counts[i]` times (the
/// counts summing to the length of `values`; `order`, the indices of
/// `values` in ascending order), as [`median`] computes it.
fn median_of_counts(values: &[f64], order: &[usize], counts: &[u32]) -> f64 {
    let n = values.len();
    // The value of rank `k` (0-based) in the multiset.
    let rank = |k: usize| {
        let mut seen = 0;
        for &i in order {
            seen += counts[i] as usize;
            if seen > k {
                return values[i];
            }
        }
        f64::NAN
    };
    let upper = rank(n / 2);
    if n % 2 == 1 {
        return upper;
    }
    (rank(n / 2 - 1) + upper) / 2.0
}

/// The [`LEVEL`] percentile interval of `distribution` around `estimate`.
fn percentile_interval(estimate: f64, sorted: &[f64]) -> Interval {
    if sorted.is_empty() {
        return Interval::exact(estimate);
    }
    let tail = (1.0 - LEVEL) / 2.0;
    Interval {
        estimate,
        low: quantile(sorted, tail).min(estimate),
        high: quantile(sorted, 1.0 - tail).max(estimate),
    }
}

/// The figure of `processes` ([`estimate`]) with its [`LEVEL`] interval by
/// a hierarchical bootstrap (processes, then rounds within each; Kalibera
/// and Jones), seeded by `seed`. With one process the interval is the
/// rounds' alone, which says nothing of other processes: callers sample
/// several.
pub fn bootstrap(processes: &[Vec<f64>], seed: u64) -> Interval {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    percentile_interval(estimate(processes), &distribution(processes, &mut rng))
}

/// Pairs two cells' samples by process and round: `f(a, b)` for every
/// round both have, per process (`(process id, rounds)`; a process or
/// round only one side has is left out).
pub fn paired(
    a: &[(u32, Vec<f64>)],
    b: &[(u32, Vec<f64>)],
    f: impl Fn(f64, f64) -> f64,
) -> Vec<(u32, Vec<f64>)> {
    a.iter()
        .filter_map(|(id, xs)| {
            let (_, ys) = b.iter().find(|(other, _)| other == id)?;
            let rounds: Vec<f64> = xs.iter().zip(ys).map(|(&x, &y)| f(x, y)).collect();
            (!rounds.is_empty()).then_some((*id, rounds))
        })
        .collect()
}

/// The rounds of `(process id, rounds)` pairs, for [`estimate`] and
/// [`bootstrap`].
pub fn rounds(processes: Vec<(u32, Vec<f64>)>) -> Vec<Vec<f64>> {
    processes.into_iter().map(|(_, r)| r).collect()
}

/// Two independent sets of samples compared: the ratio of their figures
/// with its interval, and how surprising that ratio would be if they
/// measured the same thing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// `estimate(a) / estimate(b)`, with its [`LEVEL`] interval.
    pub ratio: Interval,
    /// The two-sided p-value of "the ratio is 1": the log ratio over the
    /// standard deviation of its bootstrap distribution, against the normal
    /// distribution.
    pub p: f64,
    /// That standard deviation (of the log ratio), for [`Comparison::p_of`].
    pub sd: f64,
}

impl Comparison {
    /// The two-sided p-value of "the ratio is `r`" (a common shift of every
    /// cell, say).
    pub fn p_of(&self, r: f64) -> f64 {
        p_value((self.ratio.estimate / r).ln(), self.sd)
    }
}

/// The two-sided p-value of a log ratio `log` with standard deviation `sd`.
fn p_value(log: f64, sd: f64) -> f64 {
    match sd > 0.0 && sd.is_finite() {
        true => 2.0 * (1.0 - Normal::standard().cdf(log.abs() / sd)),
        false if log == 0.0 => 1.0,
        false => 0.0,
    }
}

/// Compares `a` with `b` (independent samples, say one cell of two runs):
/// each side resampled as [`bootstrap`] does, independently.
pub fn compare(a: &[Vec<f64>], b: &[Vec<f64>], seed: u64) -> Comparison {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let da = distribution(a, &mut rng);
    let mut db = distribution(b, &mut rng);
    let ratio = estimate(a) / estimate(b);
    // Both distributions come sorted: pair them at random.
    for i in (1..db.len()).rev() {
        db.swap(i, rng.random_range(0..=i));
    }
    let logs: Vec<f64> = da.iter().zip(&db).map(|(x, y)| (x / y).ln()).collect();
    let mut ratios: Vec<f64> = logs.iter().map(|l| l.exp()).collect();
    ratios.sort_by(f64::total_cmp);
    let n = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / n;
    let sd = (logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    Comparison {
        ratio: percentile_interval(ratio, &ratios),
        p: p_value(ratio.ln(), sd),
        sd,
    }
}

/// Which of many tests are discoveries when the false discovery rate is
/// held at `q` (Benjamini and Hochberg, 1995): sort the p-values, find the
/// largest `k` with `p(k) <= k q / m`, and call the `k` smallest
/// discoveries. Under the hypothesis that nothing differs, the chance of
/// any discovery at all is at most `q`; with 2,400 cells, a plain 5 % test
/// would call about 120 of them different by chance alone.
pub fn benjamini_hochberg(p: &[f64], q: f64) -> Vec<bool> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let k = (1..=m)
        .rev()
        .find(|&k| p[order[k - 1]] <= k as f64 * q / m as f64)
        .unwrap_or(0);
    let mut out = vec![false; m];
    for &i in &order[..k] {
        out[i] = true;
    }
    out
}

/// A choice among candidates made outside the noise: what was chosen,
/// which candidates it tied with, and what decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The chosen candidate's index.
    pub chosen: usize,
    /// The candidates left when the evidence ran out (the chosen one
    /// among them): those no other candidate cleared at any level. One
    /// alone if a level decided.
    pub tied: Vec<usize>,
    /// The level of evidence that left one candidate (`Some(level)`), or
    /// `None` if the candidates tied through every level and the tie-break
    /// chose.
    pub decided_by: Option<usize>,
}

/// Whether candidate `i` clearly beats candidate `j` on one level of
/// evidence: `Some(true)` if the interval of their paired ratio clears 1,
/// `Some(false)` if it does not, `None` if this level has no figure for
/// the pair (it then separates nothing).
pub type Evidence<'a> = &'a dyn Fn(usize, usize) -> Option<bool>;

/// Chooses among `n` candidates by `levels` of evidence in order: at each
/// level the candidates some other remaining candidate clears are dropped
/// (a candidate replaces another only when its interval clears the
/// other's); when one remains it is chosen. If several tie through every
/// level, the tie-break picks the one that `tie_break` ranks lowest (the
/// matrix's rule: the smallest table footprint, which competes least with
/// an engine's transposition table and network).
pub fn choose<K: Ord>(n: usize, levels: &[Evidence], tie_break: impl Fn(usize) -> K) -> Choice {
    let mut left: Vec<usize> = (0..n).collect();
    for (level, clears) in levels.iter().enumerate() {
        let kept: Vec<usize> = left
            .iter()
            .copied()
            .filter(|&j| !left.iter().any(|&i| i != j && clears(i, j) == Some(true)))
            .collect();
        // A cycle of clearances (a clears b clears c clears a) drops every
        // candidate: the level then separates nothing.
        if !kept.is_empty() {
            left = kept;
        }
        if left.len() == 1 {
            return Choice {
                chosen: left[0],
                tied: left,
                decided_by: Some(level),
            };
        }
    }
    let chosen = *left
        .iter()
        .min_by_key(|&&i| tie_break(i))
        .expect("at least one candidate");
    Choice {
        chosen,
        tied: left,
        decided_by: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_between_order_statistics() {
        let v: Vec<f64> = (1..=11).rev().map(f64::from).collect();
        assert_eq!(percentile(&v, 0.1), 2.0);
        assert_eq!(percentile(&v, 0.5), 6.0);
        assert_eq!(percentile(&[1.0, 2.0], 0.5), 1.5);
        assert!(percentile(&[], 0.1).is_nan());
    }

    #[test]
    fn medians_of_odd_even_and_empty_sets() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&mut []).is_nan());
        let samples = vec![vec![1.0, 9.0, 2.0], vec![], vec![5.0], vec![7.0, 8.0]];
        // Process medians 2, 5 and 7.5.
        assert_eq!(estimate(&samples), 5.0);
    }

    /// The median read off a resample's counts is the median of the
    /// resample's values, for odd and even lengths and repeated values.
    #[test]
    fn median_of_counts_is_the_resamples_median() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for n in 1..40 {
            let values: Vec<f64> = (0..n).map(|_| rng.random_range(0..8) as f64).collect();
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
            for _ in 0..50 {
                let mut counts = vec![0u32; n];
                let mut drawn = Vec::new();
                for _ in 0..n {
                    let i = rng.random_range(0..n);
                    counts[i] += 1;
                    drawn.push(values[i]);
                }
                let got = median_of_counts(&values, &order, &counts);
                assert_eq!(got, median(&mut drawn));
            }
        }
    }

    /// Six processes of five rounds, each process around its own level:
    /// `levels[p] * (1 + jitter)`.
    fn processes(levels: &[f64], jitter: f64, seed: u64) -> Vec<Vec<f64>> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        levels
            .iter()
            .map(|&l| {
                (0..5)
                    .map(|_| l * (1.0 + jitter * (rng.random::<f64>() - 0.5)))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_steady_cell_has_a_narrow_interval_that_holds_its_figure() {
        let s = processes(&[100.0; 6], 0.01, 1);
        let i = bootstrap(&s, 7);
        assert!(i.low <= i.estimate && i.estimate <= i.high, "{i:?}");
        assert!((i.estimate - 100.0).abs() < 0.5, "{i:?}");
        assert!(i.resolved() && i.half_width() < 0.005, "{i:?}");
        // Seeded: the same samples, the same interval.
        assert_eq!(bootstrap(&s, 7), i);
    }

    /// The statistics' own test with known samples: a bimodal set of
    /// processes (two layouts, 10 % apart) with one outlier process (a
    /// neighbour's burst, 40 % slower). The median over processes ignores
    /// the outlier where the mean would not, and the interval spans the two
    /// modes, too wide to decide: unresolved.
    #[test]
    fn a_bimodal_cell_with_an_outlier_process_is_unresolved_and_not_dragged() {
        let s = processes(&[100.0, 110.0, 100.0, 110.0, 100.0, 140.0], 0.01, 2);
        let i = bootstrap(&s, 3);
        assert!((100.0..=111.0).contains(&i.estimate), "{i:?}");
        let mean_of_medians = 560.0 / 6.0 + 100.0 / 6.0;
        assert!(i.estimate < mean_of_medians, "{i:?}");
        assert!(i.low <= 101.0 && i.high >= 109.0, "{i:?}");
        assert!(!i.resolved(), "{i:?}: spans both modes");
        // One mode alone is resolved.
        let one_mode = processes(&[100.0; 6], 0.02, 4);
        assert!(bootstrap(&one_mode, 3).resolved());
    }

    #[test]
    fn paired_ratios_cancel_what_slowed_a_round() {
        // Both cells slowed 30 % in the same rounds: each alone is noisy,
        // their paired ratio is not.
        let slow = |p: u32, base: f64| -> (u32, Vec<f64>) {
            let rounds = (0..6)
                .map(|r| base * if (r + p).is_multiple_of(3) { 1.3 } else { 1.0 })
                .collect();
            (p, rounds)
        };
        let a: Vec<_> = (0..6).map(|p| slow(p, 90.0)).collect();
        let b: Vec<_> = (0..6).map(|p| slow(p, 100.0)).collect();
        let ratios = rounds(paired(&a, &b, |x, y| x / y));
        assert_eq!(ratios.len(), 6);
        let i = bootstrap(&ratios, 1);
        assert!(
            (i.estimate - 0.9).abs() < 1e-9 && i.half_width() < 1e-9,
            "{i:?}"
        );
        // A process only one side has is left out.
        assert_eq!(paired(&a[..3], &b[1..], |x, y| x / y).len(), 2);
    }

    #[test]
    fn comparisons_find_a_real_difference_and_not_an_identical_one() {
        let a = processes(&[100.0, 101.0, 99.0, 100.5, 100.0, 99.5], 0.02, 5);
        let same = processes(&[100.0, 101.0, 99.0, 100.5, 100.0, 99.5], 0.02, 6);
        let faster: Vec<Vec<f64>> = same
            .iter()
            .map(|p| p.iter().map(|x| x * 0.9).collect())
            .collect();
        let c = compare(&a, &same, 1);
        assert!(
            c.p > 0.05 && c.ratio.low < 1.0 && c.ratio.high > 1.0,
            "{c:?}"
        );
        let d = compare(&a, &faster, 1);
        assert!(d.p < 1e-3 && d.ratio.above(1.05), "{d:?}");
    }

    #[test]
    fn benjamini_hochberg_holds_the_rate_where_a_plain_test_does_not() {
        // 1000 null p-values spread evenly: a plain 5 % test calls about 50
        // of them; Benjamini-Hochberg calls none.
        let null: Vec<f64> = (1..=1000).map(|i| i as f64 / 1000.0).collect();
        assert_eq!(null.iter().filter(|&&p| p <= 0.05).count(), 50);
        assert!(!benjamini_hochberg(&null, 0.05).contains(&true));
        // Three real differences among them are found.
        let mut p = null.clone();
        p[10] = 1e-6;
        p[20] = 1e-5;
        p[30] = 2e-5;
        let found = benjamini_hochberg(&p, 0.05);
        assert_eq!(found.iter().filter(|&&d| d).count(), 3);
        assert!(found[10] && found[20] && found[30]);
    }

    /// The choice rule on synthetic figures: a clear win goes to the
    /// winner, a tie to the tie-break, and a later level of evidence
    /// separates what an earlier one could not.
    #[test]
    fn clear_wins_go_to_the_winner_and_ties_to_the_tie_break() {
        // Candidates 0 (big table) and 1 (small table); 2 is far slower.
        let footprint = [800_000, 20_000, 2_000];
        let clear: Evidence = &|i, j| Some(i == 0 && j != 0 || i == 1 && j == 2);
        let c = choose(3, &[clear], |i| footprint[i]);
        assert_eq!((c.chosen, c.decided_by), (0, Some(0)));
        let tie: Evidence = &|i, j| Some(i != 2 && j == 2);
        let c = choose(3, &[tie], |i| footprint[i]);
        assert_eq!((c.chosen, c.tied, c.decided_by), (1, vec![0, 1], None));
        let second: Evidence = &|i, j| Some(i == 0 && j == 1);
        let c = choose(3, &[tie, second], |i| footprint[i]);
        assert_eq!((c.chosen, c.decided_by), (0, Some(1)));
        // A level without figures separates nothing.
        let none: Evidence = &|_, _| None;
        assert_eq!(choose(3, &[none, tie], |i| footprint[i]).chosen, 1);
    }
}
