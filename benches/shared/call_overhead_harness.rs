// The timing harness shared by `examples/call_overhead.rs` (libcuda-sys) and
// `benches/cudarc-calls` (cudarc), included by both so that they time their
// calls the same way. The includer defines `VARIANT`, `check()` and `run()`,
// and imports `std::process::ExitCode` and `std::time::Instant`.

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&v| v > 0)
        .unwrap_or(default)
}

struct Config {
    batch: usize,
    batches: usize,
    warmup: usize,
}

/// Times `batches` batches of `batch` calls of `body` (which returns how many
/// of its calls failed) and returns the per-call nanoseconds of each batch,
/// sorted. `after` runs after each batch, outside the timed region.
fn measure(
    cfg: &Config,
    mut body: impl FnMut(usize) -> usize,
    mut after: impl FnMut() -> Result<(), String>,
) -> Result<Vec<f64>, String> {
    let mut per_call = Vec::with_capacity(cfg.batches);
    let mut failed = 0;
    for i in 0..cfg.warmup + cfg.batches {
        let start = Instant::now();
        failed += body(cfg.batch);
        let ns = start.elapsed().as_nanos() as f64;
        after()?;
        if i >= cfg.warmup {
            per_call.push(ns / cfg.batch as f64);
        }
    }
    if failed > 0 {
        return Err(format!("{failed} calls failed"));
    }
    per_call.sort_by(f64::total_cmp);
    Ok(per_call)
}

fn report(bench: &str, sorted: &[f64]) {
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    println!(
        "# {bench}: min {:.1} p10 {:.1} median {:.1} p90 {:.1} ns over {} batches",
        at(0.0),
        at(0.1),
        at(0.5),
        at(0.9),
        sorted.len()
    );
    println!("bench {bench} {:.2}", at(0.5));
}

enum Failure {
    NoDriver(String),
    Error(String),
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::NoDriver(why)) => {
            eprintln!("call_overhead ({VARIANT}): no driver: {why}");
            ExitCode::from(2)
        }
        Err(Failure::Error(why)) => {
            eprintln!("call_overhead ({VARIANT}): {why}");
            ExitCode::from(1)
        }
    }
}

