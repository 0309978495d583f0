//! Per-page resource limits, for input built to hurt: what bounds the
//! memory and time one page may take, and bounded reading.
//!
//! | limit | default | past it |
//! |---|---|---|
//! | input size, [`crate::Options::max_input_bytes`] | [`crate::decode::DEFAULT_MAX_INPUT`] | [`Error::TooLarge`] |
//! | nesting depth ([`crate::parse::MAX_DEPTH`]) | 128 | deeper start tags dropped, their text kept |
//! | open formatting elements ([`crate::parse::MAX_OPEN_FORMATTING`]) | 64 | further `<b>`, `<font>`, … dropped, their text kept |
//! | attributes per element ([`crate::parse::MAX_ATTRIBUTES`]) | 512 | the rest of the tag's attributes dropped |
//! | elements, [`crate::Options::max_elements`] | [`element_budget`]: 200,000 + one per 8 input bytes | [`Error::TooManyElements`] |
//! | elements the tree builder makes up | [`synthesized_budget`]: the page's start tags + 10,000 + one per 2 start tags | [`Error::TooManyElements`] |
//! | elements' memory (default budget only) | [`memory_budget`]: 40 MB + 6 bytes per input byte, an element costing [`ELEMENT_MEMORY`] and a block-level one [`BLOCK_MEMORY`] more | [`Error::TooDense`] |
//! | time, [`crate::Options::timeout`] | none | [`Error::Timeout`], at the deadline |
//! | model files ([`MAX_MODEL_BYTES`]) | 64 MiB | [`Error::Model`] |
//!
//! The element budget is what bounds memory per input byte: a page's own
//! tags cost at least three bytes each, but the HTML5 tree builder makes
//! elements of its own (it *reconstructs* the open formatting elements in
//! every new block), so a short page could otherwise build millions.
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace; may change in any release. See the crate
//! docs' *Stability* (what the root re-exports from here is stable).

use std::io::Read;
use std::time::Duration;

use crate::Error;

/// The clock of deadlines and stage times: the standard library's, except
/// on `wasm32-unknown-unknown` (the `js/` package), where std has none
/// (`std::time::Instant::now` panics there) and `web_time` reads the
/// host's `performance.now()`.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

/// Elements any page may build, whatever its size: seven times the
/// largest page of the dev data (28,000 nodes, text included); at ~150
/// bytes of memory an element through every stage, 30 MB.
pub const ELEMENT_BUDGET_FLOOR: usize = 200_000;

/// One more element allowed per this many input bytes, above
/// [`ELEMENT_BUDGET_FLOOR`]. Real markup spends 15 bytes a node or more
/// (the densest dev page; most 30–100); 8 leaves room for dense tables and
/// lists. What bounds memory per input byte is [`memory_budget`].
pub const BYTES_PER_BUDGETED_ELEMENT: usize = 8;

/// Elements the HTML5 tree builder may make up on its own (beyond one per
/// start tag of the page), whatever the page: `html`, `head`, `body`,
/// `tbody` and the formatting elements it rebuilds after misnested markup.
/// The dev data's most is 294 (a page of 2,289 start tags); 10,000 is
/// thirty times that.
pub const SYNTHESIZED_FLOOR: usize = 10_000;

/// Beyond [`SYNTHESIZED_FLOOR`], one made-up element allowed per this
/// many start tags of the page (the dev data's largest share is 3 made-up
/// elements on a page of 2 start tags, and under 0.3 per tag on every page
/// of more than 100 tags).
pub const START_TAGS_PER_SYNTHESIZED: usize = 2;

/// The most elements a page of `start_tags` start tags may build: its
/// own, plus [`SYNTHESIZED_FLOOR`], plus one per
/// [`START_TAGS_PER_SYNTHESIZED`]. This is what stops formatting
/// amplification early: 500 formatting elements left open before 50,000
/// blocks would have the tree builder rebuild them in every block, and
/// the page is refused after about 85,000 elements instead of the 275,000
/// of its size's [`element_budget`].
pub fn synthesized_budget(start_tags: usize) -> usize {
    start_tags
        .saturating_add(SYNTHESIZED_FLOOR)
        .saturating_add(start_tags / START_TAGS_PER_SYNTHESIZED)
}

/// Memory an element costs through the pipeline, with the text node it
/// brings (a page has at most one more text node than elements): its
/// node and the text's in the tree (24 bytes each), their statistics
/// (14 bytes each), the text's entry and the selection's. Measured: 109
/// bytes an element and its text, `<b>x</b>` repeated over 4 MB.
pub const ELEMENT_MEMORY: usize = 110;

/// Memory a block-level element (a [`crate::dom::Flow::Block`] or
/// [`crate::dom::Flow::Cell`] tag: a paragraph, a list item, a cell, a
/// div) costs on top of [`ELEMENT_MEMORY`]: it may hold one of `auto`'s
/// blocks, whose features (69 numbers), context features (26) and
/// selection entries take ~450 bytes. Measured: 560 bytes a block and
/// its text, `<p>x</p>` repeated over 2 MB.
pub const BLOCK_MEMORY: usize = 450;

/// Memory the elements of any page may take (by [`ELEMENT_MEMORY`] and
/// [`BLOCK_MEMORY`]), whatever its size: 40 MB, within the 50 MB of fixed
/// room that a page may take besides 10× its size; seven times the most
/// of any page of the dev data (15,800 elements and 6,100 block-level
/// ones on one page: 4.5 MB).
pub const MEMORY_BUDGET_FLOOR: usize = 40 << 20;

/// Memory the elements may take per input byte, above
/// [`MEMORY_BUDGET_FLOOR`]. A page may cost 10× its size: this leaves
/// room for the text in the tree and in the output (its size each at
/// most) and the input itself. Real pages are far inside it (an article
/// spends ~200 bytes a paragraph: ~3 bytes of memory per byte); markup of
/// tiny blocks is not: `<p>x</p>` repeated over 48 MB took 3.2 GB (67×
/// its size) before this budget (issue 41).
pub const MEMORY_PER_INPUT_BYTE: usize = 6;

/// The default memory budget for a page of `input_len` bytes (after
/// decompression): [`MEMORY_BUDGET_FLOOR`] plus [`MEMORY_PER_INPUT_BYTE`]
/// per byte. Past it, the page is [`Error::TooDense`].
pub fn memory_budget(input_len: usize) -> usize {
    MEMORY_BUDGET_FLOOR.saturating_add(input_len.saturating_mul(MEMORY_PER_INPUT_BYTE))
}

/// The largest trained model file read (`model=FILE` parameters): the
/// shipped models are under 400 KB, a model with per-site templates a few
/// MB; anything near this is not a model.
pub const MAX_MODEL_BYTES: usize = 64 * 1024 * 1024;

/// The default element budget for a page of `input_len` bytes (after
/// decompression): [`ELEMENT_BUDGET_FLOOR`] plus one element per
/// [`BYTES_PER_BUDGETED_ELEMENT`] bytes.
pub fn element_budget(input_len: usize) -> usize {
    ELEMENT_BUDGET_FLOOR.saturating_add(input_len / BYTES_PER_BUDGETED_ELEMENT)
}

/// The pipeline's stages, as named in [`Error::Timeout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stage {
    /// gunzip, charset detection and decoding.
    Decode,
    /// The pre-pass and the HTML5 tree builder.
    Parse,
    /// Metadata, cleaning, templates and the statistics pass.
    Annotate,
    /// The algorithm.
    Algorithm,
    /// Rendering the outputs.
    Render,
}

impl Stage {
    /// The stage's name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Decode => "decode",
            Stage::Parse => "parse",
            Stage::Annotate => "annotate",
            Stage::Algorithm => "algorithm",
            Stage::Render => "render",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// When a page's time is up: set from [`crate::Options::timeout`] when its
/// extraction starts, and polled inside the stages' loops. Copy, cheap to
/// poll (one clock read), and never expiring when no timeout is set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Deadline {
    /// The instant, and the limit it was set from.
    at: Option<(Instant, Duration)>,
}

impl Deadline {
    /// A deadline that never comes.
    pub const NONE: Deadline = Deadline { at: None };

    /// `limit` from now; none when `limit` is `None`.
    pub fn after(limit: Option<Duration>) -> Deadline {
        Deadline {
            at: limit.map(|l| (Instant::now() + l, l)),
        }
    }

    /// Whether the time is up.
    #[inline]
    pub fn expired(&self) -> bool {
        self.at.is_some_and(|(at, _)| Instant::now() >= at)
    }

    /// [`Error::Timeout`] naming `stage` when the time is up.
    #[inline]
    pub fn check(&self, stage: Stage) -> Result<(), Error> {
        match self.at {
            Some((at, limit)) if Instant::now() >= at => Err(Error::Timeout { limit, stage }),
            _ => Ok(()),
        }
    }
}

/// Reads `reader` to its end, but never more than `limit + 1` bytes: a
/// device (`/dev/zero`), a pipe or a huge file costs at most that much
/// memory. Returns [`ReadError::TooLarge`] when there was more than
/// `limit`. Memory grows with what is read, never past `limit + 1` bytes
/// of buffer.
pub fn read_limited(reader: impl Read, limit: usize) -> Result<Vec<u8>, ReadError> {
    /// First buffer size, and the smallest read.
    const CHUNK: usize = 64 * 1024;
    let cap = limit.saturating_add(1);
    let mut reader = reader.take(cap as u64);
    let mut buf: Vec<u8> = Vec::new();
    loop {
        if buf.len() == buf.capacity() {
            // Double, but never past the cap: read_to_end's own doubling
            // would reserve twice the limit for the last byte.
            let want = buf.capacity().saturating_mul(2).max(CHUNK).min(cap);
            buf.reserve_exact(want.saturating_sub(buf.len()).max(1));
        }
        let len = buf.len();
        // Read into at most one chunk of zeroed space at a time: zeroing
        // all the spare capacity for each (short) pipe read is quadratic.
        let window = (buf.capacity() - len).min(CHUNK);
        buf.resize(len + window, 0);
        match reader.read(&mut buf[len..]) {
            Ok(0) => {
                buf.truncate(len);
                break;
            }
            Ok(n) => buf.truncate(len + n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => buf.truncate(len),
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    if buf.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(buf)
}

/// Reads the file at `path` with [`read_limited`], refusing a regular file
/// larger than `limit` before reading any of it.
pub fn read_file_limited(path: &std::path::Path, limit: usize) -> Result<Vec<u8>, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    if let Ok(m) = file.metadata()
        && m.is_file()
        && m.len() > limit as u64
    {
        return Err(ReadError::TooLarge { limit });
    }
    read_limited(file, limit)
}

/// Why [`read_limited`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// More than the limit.
    #[error("larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit in force.
        limit: usize,
    },
    /// The read itself failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<ReadError> for Error {
    /// [`ReadError::TooLarge`] is [`Error::TooLarge`]; an I/O error is
    /// [`Error::Io`].
    fn from(e: ReadError) -> Error {
        match e {
            ReadError::TooLarge { limit } => Error::TooLarge { limit },
            ReadError::Io(e) => Error::Io(e),
        }
    }
}

/// Reads a model file (UTF-8 JSON) of at most [`MAX_MODEL_BYTES`]; errors
/// are [`Error::Model`] naming the file.
pub fn read_model_file(path: &std::path::Path) -> Result<String, Error> {
    let bytes = read_file_limited(path, MAX_MODEL_BYTES)
        .map_err(|e| Error::Model(format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes)
        .map_err(|_| Error::Model(format!("{}: not UTF-8 text", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_at_most_limit_plus_one() {
        // An endless reader: /dev/zero without the device.
        let zeros = std::io::repeat(0);
        match read_limited(zeros, 100_000) {
            Err(ReadError::TooLarge { limit }) => assert_eq!(limit, 100_000),
            other => panic!("{other:?}"),
        }
        // Counting what is pulled: exactly limit + 1.
        struct Count(usize);
        impl Read for Count {
            fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
                self.0 += b.len();
                Ok(b.len())
            }
        }
        let mut c = Count(0);
        assert!(read_limited(&mut c, 1000).is_err());
        assert_eq!(c.0, 1001);
        assert_eq!(read_limited(&b"abc"[..], 3).unwrap(), b"abc");
        assert_eq!(read_limited(&b""[..], 0).unwrap(), b"");
        assert!(read_limited(&b"abcd"[..], 3).is_err());
    }

    #[test]
    fn deadlines() {
        assert!(!Deadline::NONE.expired());
        assert!(Deadline::NONE.check(Stage::Parse).is_ok());
        let past = Deadline::after(Some(Duration::ZERO));
        assert!(past.expired());
        let e = past.check(Stage::Annotate).unwrap_err();
        assert!(e.to_string().contains("annotate"), "{e}");
        assert!(!Deadline::after(Some(Duration::from_secs(3600))).expired());
    }

    #[test]
    fn model_files_are_bounded() {
        // /dev/zero exists on every Unix this builds on; elsewhere skip.
        let zero = std::path::Path::new("/dev/zero");
        if zero.exists() {
            let e = read_model_file(zero).unwrap_err();
            assert!(e.to_string().contains("larger than the limit"), "{e}");
        }
    }
}
