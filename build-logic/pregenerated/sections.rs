//! The sections of the pregenerated set's files: `releases.txt`, and which
//! release and variant each `//@` heading includes.

use super::*;

/// `releases.txt`: `(CUDA_VERSION, wheel version)` of each `X.Y wheel-version`
/// line, oldest first; `#` lines and blank ones are comments.
pub fn parse_releases(text: &str) -> std::result::Result<Vec<(u32, String)>, String> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut words = line.split_whitespace();
        match (words.next().and_then(parse_version), words.next(), words.next()) {
            (Some(number), Some(wheel), None) => out.push((number, wheel.to_string())),
            _ => return Err(format!("`{line}` is not `X.Y wheel-version`")),
        }
    }
    out.sort();
    Ok(out)
}

/// Which release and variant a section heading includes.
fn includes(heading: &str, release: u32, per_thread: bool) -> std::result::Result<bool, String> {
    let mut any = false;
    for clause in heading.split(',').map(str::trim) {
        let (range, variant) = match clause.split_once(' ') {
            Some((range, variant)) => (range, Some(variant.trim())),
            None => (clause, None),
        };
        let bad = || format!("`//@ {heading}` is not a section heading");
        let (low, high) = match range {
            "all" => (0, u32::MAX),
            r => match r.split_once('-') {
                Some((low, "")) => (parse_version(low).ok_or_else(bad)?, u32::MAX),
                Some((low, high)) => {
                    (parse_version(low).ok_or_else(bad)?, parse_version(high).ok_or_else(bad)?)
                }
                None => {
                    let v = parse_version(r).ok_or_else(bad)?;
                    (v, v)
                }
            },
        };
        let variant_matches = match variant {
            None => true,
            Some("default") => !per_thread,
            Some("per-thread") => per_thread,
            Some(_) => return Err(bad()),
        };
        any |= variant_matches && (low..=high).contains(&release);
    }
    Ok(any)
}

/// The lines of `text` in the sections of `release` and the variant; what
/// comes before the first heading is the file's own header, left out.
pub fn select(text: &str, release: u32, per_thread: bool) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(text.len() / 2);
    let mut keep = false;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("//@ ") {
            keep = includes(heading, release, per_thread)?;
        } else if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Each line of `text` with the releases of `releases` whose sections hold it
/// (in either variant): for a table of names, the releases that have each.
#[cfg(feature = "generate")]
pub(crate) fn releases_of_lines(
    text: &str,
    releases: &[u32],
) -> std::result::Result<std::collections::BTreeMap<String, Vec<u32>>, String> {
    let mut out: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    let mut current: Vec<u32> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("//@ ") {
            current.clear();
            for &r in releases {
                if includes(heading, r, false)? || includes(heading, r, true)? {
                    current.push(r);
                }
            }
        } else if !current.is_empty() {
            let have = out.entry(line.to_string()).or_default();
            have.extend(&current);
            have.sort_unstable();
            have.dedup();
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_are_sorted_and_rows_of_two() {
        let text = "# comment\n\n13.0 13.0.96\n12.8 12.8.90\n";
        let want = vec![(12080, "12.8.90".to_string()), (13000, "13.0.96".to_string())];
        assert_eq!(parse_releases(text), Ok(want));
        assert!(parse_releases("13.0\n").is_err());
        assert!(parse_releases("13.0 a b\n").is_err());
    }

    const FILE: &str = "// header, left out\n//@ all\nA\n//@ 12.0-12.9\nB\n//@ 13.0- default\nC\n//@ 12.8, 13.0- per-thread\nD\n";

    #[test]
    fn a_release_keeps_its_sections_and_variant() {
        // A variant belongs to its own clause: `12.8` is both variants.
        assert_eq!(select(FILE, 12080, false).unwrap(), "A\nB\nD\n");
        assert_eq!(select(FILE, 12090, true).unwrap(), "A\nB\n");
        assert_eq!(select(FILE, 13050, false).unwrap(), "A\nC\n");
        assert_eq!(select(FILE, 13050, true).unwrap(), "A\nD\n");
        assert_eq!(select(FILE, 11070, false).unwrap(), "A\n");
        assert!(select("//@ 13.0 nightly\nX\n", 13000, false).is_err());
        assert!(select("//@ 13.05-\nX\n", 13000, false).is_err());
    }

    #[test]
    #[cfg(feature = "generate")]
    fn each_line_gets_the_releases_of_either_variant() {
        let releases = [11070, 12080, 12090, 13000, 13050];
        let of = releases_of_lines(FILE, &releases).unwrap();
        assert_eq!(of["A"], releases);
        assert_eq!(of["B"], [12080, 12090]);
        assert_eq!(of["C"], [13000, 13050]);
        assert_eq!(of["D"], [12080, 13000, 13050]);
        assert!(!of.contains_key("// header, left out"));
    }
}
