//! The statistics of the benchmark tables: medians, and the split of a
//! program's runs into a fast and a slow state.
//!
//! On the H200, single runs of the same program land in a fast or a slow state
//! as a whole, whatever the code (BENCHMARKS.md explains it), so a
//! median over all runs ranks programs by how often they landed in the slow
//! state. The tables compare programs within the fast state instead.

/// The median (the mean of the two middle values for an even count), `None`
/// for no values.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// The median of the values present.
pub fn median_of(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    median(&values.into_iter().flatten().collect::<Vec<_>>())
}

/// The threshold between the fast and the slow state of `values`: Otsu's
/// split of their logarithms (the split that maximizes the variance between
/// the two groups), or `None` where the groups' medians are within 10% of each
/// other (one state) or there is nothing to split.
pub fn fast_state(values: &[f64]) -> Option<f64> {
    let mut logs: Vec<f64> = values.iter().map(|v| v.ln()).collect();
    logs.sort_by(f64::total_cmp);
    let n = logs.len() as f64;
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    let mut best = -1.0;
    let mut split = None;
    for i in 1..logs.len() {
        let (lo, hi) = logs.split_at(i);
        let (w0, w1) = (lo.len() as f64 / n, hi.len() as f64 / n);
        let between = w0 * w1 * (mean(lo) - mean(hi)).powi(2);
        if between > best {
            best = between;
            split = Some((logs[i - 1] + logs[i]) / 2.0);
        }
    }
    let split = split?;
    let lo: Vec<f64> = values.iter().copied().filter(|v| v.ln() <= split).collect();
    let hi: Vec<f64> = values.iter().copied().filter(|v| v.ln() > split).collect();
    match (median(&lo), median(&hi)) {
        (Some(lo), Some(hi)) if hi >= 1.10 * lo => Some(split.exp()),
        _ => None,
    }
}

/// A program's runs in its fast state: all of them where it shows one state
/// or has fewer than 4 runs to tell.
pub fn fast_runs(values: &[f64]) -> Vec<f64> {
    let threshold = if values.len() >= 4 {
        fast_state(values)
    } else {
        None
    };
    values
        .iter()
        .copied()
        .filter(|&v| threshold.is_none_or(|t| v <= t))
        .collect()
}

/// Faster below 0.97x, slower above 1.03x, else the same.
pub fn verdict(ratio: f64) -> &'static str {
    if ratio <= 0.97 {
        "faster"
    } else if ratio >= 1.03 {
        "slower"
    } else {
        "same"
    }
}

/// A program's fast-state figure against C's: its median over fast runs, how
/// many runs that is, the ratio to C's, its verdict, and whether the odd and
/// the even rounds alone give that verdict too.
#[derive(Debug, PartialEq)]
pub struct FastState {
    pub median: f64,
    pub fast: usize,
    pub ratio: f64,
    pub verdict: &'static str,
    pub stable: bool,
}

/// `runs` and `c` in round order; `None` where either has no run.
pub fn against_c(runs: &[f64], c: &[f64]) -> Option<FastState> {
    let (mine, cs) = (fast_runs(runs), fast_runs(c));
    let median_fast = median(&mine)?;
    let ratio = median_fast / median(&cs)?;
    let half = |v: &[f64], start: usize| -> Vec<f64> {
        v.iter().skip(start).step_by(2).copied().collect()
    };
    let halves: Vec<&str> = (0..2)
        .filter_map(|start| {
            let m = median(&fast_runs(&half(runs, start)))?;
            let c = median(&fast_runs(&half(c, start)))?;
            Some(verdict(m / c))
        })
        .collect();
    let stable = halves.len() == 2 && halves.iter().all(|&h| h == verdict(ratio));
    Some(FastState {
        median: median_fast,
        fast: mine.len(),
        ratio,
        verdict: verdict(ratio),
        stable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_even_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(median_of([None, Some(5.0), Some(1.0)]), Some(3.0));
    }

    #[test]
    fn two_states_split_between_them() {
        // Fast runs near 25, slow near 37 (the H200's two states).
        let runs = [25.0, 37.0, 25.5, 24.8, 36.5, 25.2];
        let t = fast_state(&runs).expect("two states");
        assert!(t > 25.5 && t < 36.5, "threshold {t}");
        assert_eq!(fast_runs(&runs), vec![25.0, 25.5, 24.8, 25.2]);
    }

    #[test]
    fn one_state_keeps_every_run() {
        // The best split's groups are within 10%: one state.
        let runs = [25.0, 25.4, 26.0, 26.5, 27.0];
        assert_eq!(fast_state(&runs), None);
        assert_eq!(fast_runs(&runs), runs.to_vec());
        // Fewer than 4 runs are never split.
        assert_eq!(fast_runs(&[10.0, 30.0, 31.0]), vec![10.0, 30.0, 31.0]);
        assert_eq!(fast_state(&[7.0]), None);
    }

    #[test]
    fn verdict_edges() {
        assert_eq!(verdict(0.97), "faster");
        assert_eq!(verdict(0.98), "same");
        assert_eq!(verdict(1.03), "slower");
    }

    #[test]
    fn stability_over_odd_and_even_rounds() {
        // Twice as fast in every round: faster, in both halves too.
        let c = [10.0, 10.2, 10.1, 9.9];
        let fast = [5.0, 5.1, 5.05, 4.95];
        let s = against_c(&fast, &c).unwrap();
        assert_eq!((s.verdict, s.stable, s.fast), ("faster", true, 4));
        assert!((s.ratio - 0.5).abs() < 1e-9);
        // Faster in the odd rounds, slower in the even ones, the same overall.
        // (Each half's runs are within 10% of each other: one state.)
        let mixed = [9.6, 10.4, 9.6, 10.4];
        let c = [10.0, 10.0, 10.0, 10.0];
        let s = against_c(&mixed, &c).unwrap();
        assert_eq!((s.verdict, s.stable), ("same", false));
        assert_eq!(against_c(&[], &c), None);
    }
}
