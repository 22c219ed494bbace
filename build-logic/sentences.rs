//! What this crate says that no header does, from the tables in `sentences/`:
//! what each function does and
//! what each versioned ABI changed (`summaries.txt`), what each `CUresult`
//! means (`results.txt`), what every other enumerator means
//! (`enumerators.txt`), what each struct field holds (`fields.txt`), what
//! each `#define` constant means (`constants.txt`), what each untyped
//! parameter takes (`params.txt`), how long each array parameter is
//! (`arrays.txt`), what each group of NVIDIA's reference is for
//! (`groups.txt`), the calling contracts (`contracts.txt`),
//! its own sentences for each attribute enum it says
//! more of than the common lines, the memory-pool and pointer attributes (the
//! pregenerated set carries none of the header's text, and docs.rs renders
//! it), what a driver was measured to refuse, and the facts table of attribute
//! value types with the `cuda.h` line that says each.

mod attributes;
pub(crate) use attributes::*;

/// This crate's sentence for an enumerator, where it has one.
pub fn sentence(name: &str) -> Option<&'static str> {
    POOL_ATTRIBUTES.iter().chain(&POINTER_ATTRIBUTES).find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// `(enumerator, type, shape, evidence, cuda.h line, the words there)`.
const FACTS: &str = include_str!("sentences/attribute_facts.txt");

/// One row of the facts table.
pub struct Fact<'a> {
    pub enumerator: &'a str,
    /// A C type, `.member` of the getter's union, or `-`: no value.
    pub ty: &'a str,
    pub shape: &'a str,
    /// `documented`, `measured` or `named`.
    pub evidence: &'a str,
    /// `13.5:15932`: the release's `cuda.h`, and the line.
    pub line: &'a str,
    /// The words on that line that say it.
    pub says: &'a str,
    /// `(release, line)` where each release's `cuda.h` says them, of the
    /// releases whose bindings take the type from this table.
    pub lines: Vec<(&'a str, usize)>,
}

impl Fact<'_> {
    /// The line to cite for bindings of `release` (`13.0`): `(13.0:14172, true)`
    /// where that release's header says it, else the table's own line, `false`.
    pub fn cited(&self, release: &str) -> (String, bool) {
        match self.lines.iter().find(|(r, _)| *r == release) {
            Some((r, n)) => (format!("{r}:{n}"), true),
            None => (self.line.to_string(), false),
        }
    }
}

/// The facts table's rows (the crate's own file: its unit test reads every
/// row), read once.
pub fn facts() -> &'static [Fact<'static>] {
    static ROWS: std::sync::OnceLock<Vec<Fact<'static>>> = std::sync::OnceLock::new();
    ROWS.get_or_init(read_facts)
}

fn read_facts() -> Vec<Fact<'static>> {
    let row = |l: &'static str| {
        let mut f = l.split('\t');
        let mut next = || f.next().unwrap_or_default();
        Fact {
            enumerator: next(),
            ty: next(),
            shape: next(),
            evidence: next(),
            line: next(),
            says: next(),
            lines: next()
                .split(',')
                .filter_map(|l| l.split_once(':'))
                .filter_map(|(r, n)| Some((r, n.parse().ok()?)))
                .collect(),
        }
    };
    FACTS.lines().filter(|l| !l.starts_with('#')).map(row).collect()
}

/// A text table of this crate's, `name<TAB>text` a row, comments left out.
type Table = std::collections::HashMap<&'static str, &'static str>;

fn table(text: &'static str) -> Table {
    text.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split_once('\t')).collect()
}

/// What each function does, and what each versioned ABI changed (`summaries.txt`).
const SUMMARIES: &str = include_str!("sentences/summaries.txt");

/// The family of a function: its name without an ABI version or a per-thread
/// suffix (`cuMemcpyHtoD_v2_ptds` is `cuMemcpyHtoD`), which its summary is under.
pub fn family(name: &str) -> &str {
    let name = name.strip_suffix("_ptsz").or_else(|| name.strip_suffix("_ptds")).unwrap_or(name);
    match name.rsplit_once("_v") {
        Some((family, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => family,
        _ => name,
    }
}

/// `summaries.txt`, read once.
fn summaries() -> &'static Table {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(SUMMARIES))
}

/// This crate's summary of the function `name`, any of its ABIs or variants.
pub fn summary(name: &str) -> Option<&'static str> {
    summaries().get(family(name)).copied()
}

/// What the versioned ABI `name` (`cuCtxCreate_v4`, `cuMemAlloc_v2_ptds`)
/// changed; `None` for a name without a version.
pub fn abi_note(name: &str) -> Option<&'static str> {
    let abi = name.strip_suffix("_ptsz").or_else(|| name.strip_suffix("_ptds")).unwrap_or(name);
    (family(abi) != abi).then(|| summaries().get(abi).copied())?
}

/// What each struct and union field holds (`fields.txt`), under its path
/// (`CUDA_MEMCPY2D_st.srcPitch`).
const FIELDS: &str = include_str!("sentences/fields.txt");

/// This crate's line of a field, by its path.
pub fn field(path: &str) -> Option<&'static str> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(FIELDS)).get(path).copied()
}

/// What each enumerator means (`enumerators.txt`): every enumerator of every
/// release and interop module but the `CUresult` codes (`results.txt`) and
/// the pool and pointer attributes (their sentences above).
const ENUMERATORS: &str = include_str!("sentences/enumerators.txt");

/// The line of an enumerator in `enumerators.txt`.
pub fn enumerator_row(name: &str) -> Option<&'static str> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(ENUMERATORS)).get(name).copied()
}

/// This crate's line of an enumerator, from whichever of its three homes has it.
pub fn enumerator(name: &str) -> Option<&'static str> {
    enumerator_row(name)
        .or_else(|| sentence(name))
        .or_else(|| result(name).map(|(meaning, _)| meaning))
}

/// What each `#define` constant means (`constants.txt`).
const CONSTANTS: &str = include_str!("sentences/constants.txt");

/// This crate's line of a `#define` constant.
pub fn constant(name: &str) -> Option<&'static str> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(CONSTANTS)).get(name).copied()
}

/// The calling contracts (`contracts.txt`): paragraphs of a function family,
/// a struct or an enumerator, several to an item.
const CONTRACTS: &str = include_str!("sentences/contracts.txt");

/// This crate's paragraphs of the calling contract of `item`, in order.
pub fn contracts(item: &str) -> impl Iterator<Item = &'static str> + '_ {
    CONTRACTS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .filter(move |(name, _)| *name == item)
        .map(|(_, text)| text)
}

/// What C leaves untyped in the functions' parameters (`params.txt`).
const PARAMS: &str = include_str!("sentences/params.txt");

/// One row of `params.txt`: a parameter of a function family.
pub struct Param {
    pub function: &'static str,
    pub parameter: &'static str,
    /// `bits`, `one`, `zero` (integers); `in`, `out`, `inout`, `slot`, `opaque` (pointers).
    pub kind: &'static str,
    /// The enum or `PREFIX_*` family an integer takes, or the type a pointer
    /// points to; `-` for none.
    pub takes: &'static str,
    pub text: &'static str,
}

impl Param {
    /// An integer's enum or family, where it names one.
    pub fn family(&self) -> Option<&'static str> {
        (["bits", "one"].contains(&self.kind) && self.takes != "-").then_some(self.takes)
    }
}

/// Every row of `params.txt`, read once.
pub fn params() -> &'static [Param] {
    static ROWS: std::sync::OnceLock<Vec<Param>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        PARAMS
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut f = l.splitn(5, '\t');
                Some(Param {
                    function: f.next()?,
                    parameter: f.next()?,
                    kind: f.next()?,
                    takes: f.next()?,
                    text: f.next()?,
                })
            })
            .collect()
    })
}

/// Whether a parameter is one `params.txt` must have a row for: a `void *` or
/// `void **` one, or an integer flags or mode parameter (or pointer to one),
/// by its name and its Rust type (`*mut ::core::ffi::c_void`, `c_uint`).
pub fn untyped(name: &str, ty: &str) -> bool {
    let ty: String = ty.split_whitespace().collect();
    if ty.contains("c_void") {
        return true;
    }
    let lower = name.to_ascii_lowercase();
    let integer = ty.trim_start_matches("*mut").trim_start_matches("*const");
    let integer = integer.rsplit("::").next().unwrap_or(integer);
    let integers = ["c_uint", "c_int", "c_ulonglong", "cuuint64_t", "cuuint32_t", "u32", "u64"];
    (lower.contains("flag") || lower.contains("mode")) && integers.contains(&integer)
}

/// The row of parameter `parameter` of the function `name` (any ABI of its family).
pub fn param(name: &str, parameter: &str) -> Option<&'static Param> {
    let family = family(name);
    params().iter().find(|p| p.function == family && p.parameter == parameter)
}

/// Each group of NVIDIA's reference: our title, and what its functions are for (`groups.txt`).
const GROUPS: &str = include_str!("sentences/groups.txt");

/// `(title, line)` of the group `id` (`CUDA_MALLOC_ASYNC`): our row, or for a
/// group newer than the table (headers of a newer release) its ID and no line.
pub fn group(id: &str) -> (&str, &'static str) {
    group_row(id).unwrap_or((id, ""))
}

/// The row of the group `id` in `groups.txt`.
pub fn group_row(id: &str) -> Option<(&'static str, &'static str)> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(GROUPS)).get(id).and_then(|text| text.split_once('\t'))
}

/// Every array parameter, with its length (`arrays.txt`).
const ARRAYS: &str = include_str!("sentences/arrays.txt");

/// One row of `arrays.txt`: an array parameter of a function family.
pub struct Array {
    pub function: &'static str,
    pub parameter: &'static str,
    /// Its element count: an expression of the other parameters, or words.
    pub count: &'static str,
    pub text: &'static str,
}

impl Array {
    /// Its length as the docs write it: "`tensorRank - 1` elements", or the
    /// words where no parameter gives it.
    pub fn length(&self) -> String {
        let words = self.count.contains("terminated") || self.count.starts_with("the ");
        match words {
            true => self.count.to_string(),
            false => format!("`{}` elements", self.count),
        }
    }
}

/// Every row of `arrays.txt`, read once.
pub fn arrays() -> &'static [Array] {
    static ROWS: std::sync::OnceLock<Vec<Array>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        ARRAYS
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut f = l.splitn(4, '\t');
                Some(Array {
                    function: f.next()?,
                    parameter: f.next()?,
                    count: f.next()?,
                    text: f.next()?,
                })
            })
            .collect()
    })
}

/// The row of the array parameter `parameter` of the function `name` (any ABI of its family).
pub fn array(name: &str, parameter: &str) -> Option<&'static Array> {
    type Index = std::collections::HashMap<(&'static str, &'static str), &'static Array>;
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    let index =
        INDEX.get_or_init(|| arrays().iter().map(|a| ((a.function, a.parameter), a)).collect());
    index.get(&(family(name), parameter)).copied()
}

/// What each `CUresult` means and what a caller does about it (`results.txt`).
const RESULTS: &str = include_str!("sentences/results.txt");

/// `(meaning, what to do)` of the `CUresult` enumerator `name`.
pub fn result(name: &str) -> Option<(&'static str, &'static str)> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(RESULTS)).get(name).and_then(|text| text.split_once('\t'))
}

/// NVIDIA's doxygen commands of its own in `cuda.h` (their text is in NVIDIA's
/// doxygen setup, not in the header), each as a note of this crate's, with a
/// link to NVIDIA's page on it where there is one.
#[cfg(feature = "generate")]
pub(crate) const DOXYGEN_NOTES: [(&str, &str); 9] = [
    ("notefnerr", "Note: it may also return the error of earlier asynchronous work."),
    (
        "note_graph_thread_safety",
        "Note: graph objects are not thread-safe: one graph must not be used from two threads \
         at once ([NVIDIA's notes](https://docs.nvidia.com/cuda/cuda-driver-api/graphs-thread-safety.html)).",
    ),
    (
        "note_null_stream",
        "Note: a null stream follows the default stream's rules ([NVIDIA's notes on stream \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/stream-sync-behavior.html)).",
    ),
    (
        "note_sync",
        "Note: for most uses it returns only once its work is done ([NVIDIA's notes on API \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/api-sync-behavior.html)).",
    ),
    (
        "note_async",
        "Note: for most uses it returns before its work is done ([NVIDIA's notes on API \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/api-sync-behavior.html)).",
    ),
    (
        "note_memset",
        "Note: when a memset returns before it is done: [NVIDIA's notes on API \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/api-sync-behavior.html).",
    ),
    (
        "note_memcpy",
        "Note: when a copy returns before it is done: [NVIDIA's notes on API \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/api-sync-behavior.html).",
    ),
    (
        "note_version_mixing",
        "Note: what may be mixed across releases: [NVIDIA's version mixing \
         rules](https://docs.nvidia.com/cuda/cuda-driver-api/version-mixing-rules.html).",
    ),
    ("note_destroy_ub", "Note: destroying it while work still uses it is undefined behaviour."),
];
