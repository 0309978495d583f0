//! Where rows go: the [`RowSink`] trait, [`JsonlSink`], `ParquetSink`
//! (with the `parquet` feature), and the output-file protocol.
//!
//! A run writes to `FILE.tmp` ([`tmp_path`]) and renames it to `FILE` when
//! the last row is written and synced ([`commit`]) — when `FILE` is a
//! regular file or does not exist yet. Standard output, a device, a FIFO
//! or a symlink is written straight, never renamed over ([`Target`]).
//!
//! `FILE.tmp` is never opened through a symlink (one planted there would
//! have the run truncate its target), never waited on (a FIFO), and it is
//! locked for the run (an advisory `flock`): a second run with the same
//! `FILE` is refused ([`Error::Locked`]) instead of mixing its rows in.
//! [`Target::open`] with `resume` takes a cut run's `FILE.tmp` (or a
//! finished `FILE`) back: it cuts a torn last line (reading at most
//! [`RESUME_LINE_LIMIT`] bytes of any line) and counts the ids already
//! there, for [`crate::inputs::Pages::skipping`]. A run writes in input
//! order, so the kept rows are a prefix of the full output and the resumed
//! file is byte-identical to an uninterrupted run's.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, LineWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::Error;
use crate::row::Row;

/// Output buffer of a JSONL file: rows are written in a few large writes.
const JSONL_BUFFER: usize = 1 << 20;

/// Longest line of a cut run's output read back when resuming: a longer
/// one is taken for torn (cut there, and its page extracted again; rows
/// are deterministic, so the output is the same). A garbage last line of
/// 1 GB was read whole (983 MB) before.
pub const RESUME_LINE_LIMIT: u64 = 64 << 20;

/// How long one page's extraction took, measured by the driver around the
/// extraction alone (not reading the page, not writing its row); zero unless
/// the driver was asked to time ([`crate::driver::Driver::timed`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// Wall-clock time.
    pub wall: Duration,
    /// CPU time of the thread that extracted the page (`None` where the
    /// platform cannot tell).
    pub cpu: Option<Duration>,
}

/// Where rows go, in input order.
pub trait RowSink {
    /// Writes one row.
    fn write_row(&mut self, row: &Row) -> io::Result<()>;
    /// Writes one row with its extraction time; sinks that do not keep
    /// times write the row alone (the default).
    fn write_timed(&mut self, row: &Row, timing: Timing) -> io::Result<()> {
        let _ = timing;
        self.write_row(row)
    }
    /// Writes whatever is buffered and makes the output durable; call it
    /// once, after the last row.
    fn finish(&mut self) -> io::Result<()>;
}

/// A sink that also writes each row's extraction time to a tab-separated
/// file, for benchmarks: `id<TAB>wall seconds<TAB>CPU seconds` a line (the
/// third column empty where the CPU time is unknown), in row order. The
/// rows themselves go to the inner sink unchanged.
pub struct TimedSink<S, W: Write> {
    inner: S,
    times: W,
}

impl<S: RowSink, W: Write> TimedSink<S, W> {
    /// Rows to `inner`, times to `times` (buffer it).
    pub fn new(inner: S, times: W) -> TimedSink<S, W> {
        TimedSink { inner, times }
    }

    /// The two sinks back.
    pub fn into_inner(self) -> (S, W) {
        (self.inner, self.times)
    }
}

impl<S: RowSink, W: Write> RowSink for TimedSink<S, W> {
    fn write_row(&mut self, row: &Row) -> io::Result<()> {
        self.write_timed(row, Timing::default())
    }

    fn write_timed(&mut self, row: &Row, timing: Timing) -> io::Result<()> {
        self.inner.write_timed(row, timing)?;
        // Ids come from file names, WARC records or JSONL fields: keep the
        // file tab-separated whatever they hold.
        let id: String = row
            .id
            .chars()
            .map(|c| {
                if c == '\t' || c == '\n' || c == '\r' {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        write!(self.times, "{id}\t{:.9}\t", timing.wall.as_secs_f64())?;
        if let Some(cpu) = timing.cpu {
            write!(self.times, "{:.9}", cpu.as_secs_f64())?;
        }
        self.times.write_all(b"\n")
    }

    fn finish(&mut self) -> io::Result<()> {
        self.inner.finish()?;
        self.times.flush()
    }
}

/// A boxed sink (what [`open`] and [`Target::open`] give) is a sink.
impl<T: RowSink + ?Sized> RowSink for Box<T> {
    fn write_row(&mut self, row: &Row) -> io::Result<()> {
        (**self).write_row(row)
    }

    fn write_timed(&mut self, row: &Row, timing: Timing) -> io::Result<()> {
        (**self).write_timed(row, timing)
    }

    fn finish(&mut self) -> io::Result<()> {
        (**self).finish()
    }
}

/// Rows kept in memory.
impl RowSink for Vec<Row> {
    fn write_row(&mut self, row: &Row) -> io::Result<()> {
        self.push(row.clone());
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// One JSON object a line (see [`Row`]).
pub struct JsonlSink<W: Write> {
    w: W,
    /// The file to sync on [`RowSink::finish`], when it is one.
    sync: Option<File>,
}

impl<W: Write> JsonlSink<W> {
    /// Rows to any writer (buffer it: each row is a few writes).
    pub fn new(w: W) -> JsonlSink<W> {
        JsonlSink { w, sync: None }
    }

    /// The writer.
    pub fn into_inner(self) -> W {
        self.w
    }
}

impl<W: Write> RowSink for JsonlSink<W> {
    fn write_row(&mut self, row: &Row) -> io::Result<()> {
        serde_json::to_writer(&mut self.w, row)?;
        self.w.write_all(b"\n")
    }

    fn finish(&mut self) -> io::Result<()> {
        self.w.flush()?;
        match &self.sync {
            Some(f) => f.sync_all(),
            None => Ok(()),
        }
    }
}

/// A JSONL file at `path` as given (created or truncated, or appended
/// to), buffered and synced on [`RowSink::finish`]. A run's output goes
/// through [`Target::open`] instead, which guards its temporary file.
pub fn open_jsonl(path: &Path, append: bool) -> Result<JsonlSink<BufWriter<File>>, Error> {
    let f = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let sync = f.try_clone().map_err(|e| Error::io(path, e))?;
    Ok(JsonlSink {
        w: BufWriter::with_capacity(JSONL_BUFFER, f),
        sync: Some(sync),
    })
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// One JSON object a line ([`JsonlSink`]).
    Jsonl,
    /// Apache Parquet (`ParquetSink`; needs the `parquet` feature).
    Parquet,
}

impl Format {
    /// Every output format.
    pub const ALL: [Format; 2] = [Format::Jsonl, Format::Parquet];

    /// The format's name (`jsonl`, `parquet`), as [`str::parse`]
    /// reads it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    /// A format by its [`Format::name`].
    fn from_str(s: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown output format {s:?} (jsonl or parquet)"))
    }
}

/// An output file in this format: [`open_jsonl`] (appended to when
/// `append`), or a new Parquet file ([`Error::NoParquet`] without the
/// `parquet` feature; a Parquet file cannot be appended to).
pub fn open(format: Format, path: &Path, append: bool) -> Result<Box<dyn RowSink + Send>, Error> {
    match format {
        Format::Jsonl => Ok(Box::new(open_jsonl(path, append)?)),
        #[cfg(feature = "parquet")]
        Format::Parquet => Ok(Box::new(ParquetSink::create(path)?)),
        #[cfg(not(feature = "parquet"))]
        Format::Parquet => Err(Error::NoParquet),
    }
}

/// Where a run's rows go, by what the output path is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Target {
    /// A regular file, or a path where nothing is yet: rows go to `tmp`,
    /// renamed to `out` when the run is done ([`Target::commit`]).
    File {
        /// The output.
        out: PathBuf,
        /// `out.tmp`.
        tmp: PathBuf,
    },
    /// Standard output (`-`): rows are written as they come, a line at a
    /// time.
    Stdout,
    /// Anything else (a device, a FIFO, a symlink, to whatever): written
    /// straight through, a line at a time; never replaced, never renamed
    /// over, not resumable.
    Direct(PathBuf),
}

impl Target {
    /// The target of an output path (`-` is standard output). Only a path
    /// that is itself a regular file (not a symlink to one) or does not
    /// exist gets the temporary-then-rename protocol: renaming over
    /// `/dev/stdout` would replace the device link with a file.
    pub fn of(out: &Path) -> Target {
        if out == Path::new("-") {
            return Target::Stdout;
        }
        match std::fs::symlink_metadata(out) {
            Ok(m) if !m.is_file() => Target::Direct(out.to_path_buf()),
            _ => Target::File {
                out: out.to_path_buf(),
                tmp: tmp_path(out),
            },
        }
    }

    /// Whether a cut run into it can be resumed (a regular file only).
    pub fn resumable(&self) -> bool {
        matches!(self, Target::File { .. })
    }

    /// The path rows are written to while the run goes on (`-` for
    /// standard output).
    pub fn writing_to(&self) -> &Path {
        match self {
            Target::File { tmp, .. } => tmp,
            Target::Stdout => Path::new("-"),
            Target::Direct(p) => p,
        }
    }

    /// Opens it for rows in this format. A regular file's `tmp` is taken
    /// as [`take_tmp`] says (locked for the run: keep the sink until after
    /// [`Target::commit`]); with `resume`, a cut run's rows are kept (a
    /// finished output is moved back to `tmp` first) and counted. The
    /// others are written from their start (`resume` needs a file: see
    /// [`Target::resumable`]).
    pub fn open(
        &self,
        format: Format,
        resume: bool,
    ) -> Result<(Box<dyn RowSink + Send>, Resume), Error> {
        match self {
            Target::File { out, tmp } => {
                if resume {
                    restore_finished(out, tmp)?;
                }
                let mut file = take_tmp(tmp, out, resume)?;
                let kept = match resume {
                    true => kept_rows(&mut file).map_err(|e| Error::io(tmp, e))?,
                    false => Resume::default(),
                };
                let sink: Box<dyn RowSink + Send> = match format {
                    Format::Jsonl => {
                        let sync = file.try_clone().map_err(|e| Error::io(tmp, e))?;
                        Box::new(JsonlSink {
                            w: BufWriter::with_capacity(JSONL_BUFFER, file),
                            sync: Some(sync),
                        })
                    }
                    #[cfg(feature = "parquet")]
                    Format::Parquet => {
                        Box::new(ParquetSink::new(file).map_err(|e| Error::io(tmp, e))?)
                    }
                    #[cfg(not(feature = "parquet"))]
                    Format::Parquet => return Err(Error::NoParquet),
                };
                Ok((sink, kept))
            }
            _ => Ok((self.open_straight(format)?, Resume::default())),
        }
    }

    /// Standard output or anything else written straight.
    fn open_straight(&self, format: Format) -> Result<Box<dyn RowSink + Send>, Error> {
        match self {
            Target::File { .. } => self.open(format, false).map(|(sink, _)| sink),
            Target::Stdout => match format {
                Format::Jsonl => Ok(Box::new(JsonlSink::new(LineWriter::with_capacity(
                    JSONL_BUFFER,
                    io::stdout(),
                )))),
                _ => Err(Error::io(
                    "-",
                    io::Error::other("only JSONL can be written to standard output"),
                )),
            },
            Target::Direct(p) => {
                let f = File::create(p).map_err(|e| Error::io(p, e))?;
                match format {
                    Format::Jsonl => Ok(Box::new(JsonlSink::new(LineWriter::with_capacity(
                        JSONL_BUFFER,
                        f,
                    )))),
                    #[cfg(feature = "parquet")]
                    Format::Parquet => {
                        Ok(Box::new(ParquetSink::new(f).map_err(|e| Error::io(p, e))?))
                    }
                    #[cfg(not(feature = "parquet"))]
                    Format::Parquet => Err(Error::NoParquet),
                }
            }
        }
    }

    /// Ends the run: renames a regular file's `tmp` into place; nothing
    /// for the others.
    pub fn commit(&self) -> Result<(), Error> {
        match self {
            Target::File { out, tmp } => commit(tmp, out),
            _ => Ok(()),
        }
    }
}

/// The temporary file beside an output: `FILE.tmp`.
pub fn tmp_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    out.with_file_name(name)
}

/// Renames a finished `tmp` to `out`.
pub fn commit(tmp: &Path, out: &Path) -> Result<(), Error> {
    std::fs::rename(tmp, out).map_err(|e| Error::io(out, e))
}

/// Takes `tmp` for a run writing `out`: created if it is not there, else
/// opened as it is — never through a symlink, never waiting (a FIFO), and
/// only a regular file; then locked (`flock`, exclusive, not waiting):
/// another run writing the same output holds it, and this one is refused
/// with [`Error::Locked`]. Emptied unless `keep` (a resumed run). The file
/// stays locked while it is open.
pub fn take_tmp(tmp: &Path, out: &Path, keep: bool) -> Result<File, Error> {
    let io_err = |e: io::Error| Error::io(tmp, e);
    // A run that finished meanwhile renames `tmp` away: take the new one.
    for _ in 0..TAKE_TRIES {
        let file = match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(tmp)
        {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => match open_existing(tmp) {
                Ok(f) => f,
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io_err(e)),
            },
            Err(e) => return Err(io_err(e)),
        };
        if !lock(&file).map_err(io_err)? {
            return Err(Error::Locked {
                out: out.to_path_buf(),
                tmp: tmp.to_path_buf(),
            });
        }
        if !still_at(&file, tmp) {
            continue;
        }
        if !keep {
            file.set_len(0).map_err(io_err)?;
        }
        return Ok(file);
    }
    Err(io_err(io::Error::other(
        "it keeps being replaced by another run: try again",
    )))
}

/// Tries of [`take_tmp`] when another run renames `tmp` away under it.
const TAKE_TRIES: usize = 5;

/// Opens an existing `tmp` for reading and writing: not through a
/// symlink, not waiting on a FIFO, and only a regular file.
fn open_existing(tmp: &Path) -> io::Result<File> {
    #[cfg(unix)]
    let file = {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDWR | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        match rustix::fs::open(tmp, flags, Mode::empty()) {
            Ok(fd) => File::from(fd),
            Err(e) if e == rustix::io::Errno::LOOP => {
                return Err(io::Error::other(
                    "is a symlink: refusing to write through it (remove it)",
                ));
            }
            Err(e) => return Err(e.into()),
        }
    };
    #[cfg(not(unix))]
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(tmp)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(
            "is not a regular file (a FIFO, a device): refusing to use it",
        ));
    }
    Ok(file)
}

/// Locks `file` for this run (exclusive, not waiting); false when another
/// run holds it.
fn lock(file: &File) -> io::Result<bool> {
    #[cfg(unix)]
    {
        use rustix::fs::FlockOperation;
        match rustix::fs::flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(true),
            Err(e) if e == rustix::io::Errno::WOULDBLOCK => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(true)
    }
}

/// Whether `tmp` is still the file `file` is open on (another run may
/// have renamed it into place meanwhile).
fn still_at(file: &File, tmp: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::symlink_metadata(tmp)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, tmp);
        true
    }
}

/// For resuming into `out`: moves a finished `out` back to `tmp` when
/// there is no `tmp`, without replacing a `tmp` that appears meanwhile (a
/// hard link, then the old name removed; a rename where links are not
/// supported).
fn restore_finished(out: &Path, tmp: &Path) -> Result<(), Error> {
    let regular = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file());
    if std::fs::symlink_metadata(tmp).is_ok() || !regular(out) {
        return Ok(());
    }
    match std::fs::hard_link(out, tmp) {
        Ok(()) => std::fs::remove_file(out).map_err(|e| Error::io(out, e)),
        // Another run made `tmp` first: resume from it.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(_) => std::fs::rename(out, tmp).map_err(|e| Error::io(out, e)),
    }
}

/// Reads a cut run's rows back from `file` (its start): cuts it after its
/// last whole row (a torn last line, a line over [`RESUME_LINE_LIMIT`], or
/// anything from the first line that is not a row), counts the ids there,
/// and leaves the file positioned at its end for the rows to come.
pub fn kept_rows(file: &mut File) -> io::Result<Resume> {
    file.rewind()?;
    let mut r = BufReader::with_capacity(JSONL_BUFFER, &*file);
    let mut ids = Vec::new();
    let mut line = Vec::new();
    let mut good = 0u64;
    loop {
        line.clear();
        let n = (&mut r)
            .take(RESUME_LINE_LIMIT + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        match serde_json::from_slice::<Kept>(&line) {
            Ok(row) => ids.push(row.id),
            Err(_) => break,
        }
        good += n as u64;
    }
    drop(r);
    file.set_len(good)?;
    file.seek(io::SeekFrom::End(0))?;
    Ok(ids.into_iter().collect())
}

/// The pages a resumed run's output already has: how many rows of each id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    ids: HashMap<String, usize>,
    rows: u64,
}

impl Resume {
    /// The rows already there.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// How many rows have this id.
    pub fn count(&self, id: &str) -> usize {
        self.ids.get(id).copied().unwrap_or(0)
    }

    pub(crate) fn into_ids(self) -> HashMap<String, usize> {
        self.ids
    }
}

impl FromIterator<String> for Resume {
    fn from_iter<I: IntoIterator<Item = String>>(ids: I) -> Resume {
        let mut r = Resume::default();
        for id in ids {
            *r.ids.entry(id).or_insert(0) += 1;
            r.rows += 1;
        }
        r
    }
}

/// What a kept line must have: a row's id and algorithm (the rest is not
/// looked at, so rows with error kinds of a newer version are kept too).
#[derive(Deserialize)]
struct Kept {
    id: String,
    #[serde(rename = "algorithm")]
    _algorithm: serde::de::IgnoredAny,
}

/// For resuming into `out` (tests and tools that do not write after):
/// [`Target::open`]'s resume steps, the lock released on return.
pub fn resume_jsonl(out: &Path, tmp: &Path) -> Result<Resume, Error> {
    restore_finished(out, tmp)?;
    if std::fs::symlink_metadata(tmp).is_err() {
        return Ok(Resume::default());
    }
    let mut file = take_tmp(tmp, out, true)?;
    kept_rows(&mut file).map_err(|e| Error::io(tmp, e))
}

#[cfg(feature = "parquet")]
pub use pq::{PARQUET_ROW_GROUP, ParquetSink};

/// Parquet output over the `parquet` crate's column writers (no Arrow):
/// one flat schema, the error as two columns `error_kind`, `error_message`.
#[cfg(feature = "parquet")]
mod pq {
    use std::fs::File;
    use std::io;
    use std::path::Path;
    use std::sync::Arc;

    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;

    use super::RowSink;
    use crate::Error;
    use crate::row::Row;

    /// Rows a Parquet row group holds.
    pub const PARQUET_ROW_GROUP: usize = 4096;

    /// The columns, in order; `id` and `algorithm` are required.
    const SCHEMA: &str = "message page {
        required binary id (UTF8);
        optional binary url (UTF8);
        optional binary title (UTF8);
        optional binary text (UTF8);
        required binary algorithm (UTF8);
        optional binary charset (UTF8);
        optional binary error_kind (UTF8);
        optional binary error_message (UTF8);
    }";

    /// The number of columns in [`SCHEMA`].
    const COLUMNS: usize = 8;

    /// Whether a column (by index in [`SCHEMA`]) is required.
    fn required(column: usize) -> bool {
        column == 0 || column == 4
    }

    /// Parquet rows: `id url title text algorithm charset error_kind
    /// error_message`, in row groups of [`PARQUET_ROW_GROUP`] rows.
    pub struct ParquetSink {
        writer: Option<SerializedFileWriter<File>>,
        columns: [Vec<Option<String>>; COLUMNS],
    }

    fn err(e: parquet::errors::ParquetError) -> io::Error {
        io::Error::other(e.to_string())
    }

    impl ParquetSink {
        /// Creates a Parquet file.
        pub fn create(path: &Path) -> Result<ParquetSink, Error> {
            let f = File::create(path).map_err(|e| Error::io(path, e))?;
            ParquetSink::new(f).map_err(|e| Error::io(path, e))
        }

        /// Parquet rows into an open file.
        pub fn new(f: File) -> io::Result<ParquetSink> {
            let schema = Arc::new(parse_message_type(SCHEMA).map_err(err)?);
            let props = Arc::new(WriterProperties::builder().build());
            Ok(ParquetSink {
                writer: Some(SerializedFileWriter::new(f, schema, props).map_err(err)?),
                columns: Default::default(),
            })
        }

        fn flush_group(&mut self) -> io::Result<()> {
            if self.columns[0].is_empty() {
                return Ok(());
            }
            let Some(writer) = self.writer.as_mut() else {
                return Err(io::Error::other("Parquet file already finished"));
            };
            let mut group = writer.next_row_group().map_err(err)?;
            let mut i = 0;
            while let Some(mut col) = group.next_column().map_err(err)? {
                let values = std::mem::take(&mut self.columns[i]);
                let defs: Vec<i16> = values.iter().map(|v| v.is_some() as i16).collect();
                let data: Vec<ByteArray> = values
                    .into_iter()
                    .flatten()
                    .map(|s| ByteArray::from(s.into_bytes()))
                    .collect();
                col.typed::<ByteArrayType>()
                    .write_batch(&data, (!required(i)).then_some(&defs[..]), None)
                    .map_err(err)?;
                col.close().map_err(err)?;
                i += 1;
            }
            group.close().map_err(err)?;
            Ok(())
        }
    }

    impl RowSink for ParquetSink {
        fn write_row(&mut self, row: &Row) -> io::Result<()> {
            let values = [
                Some(row.id.clone()),
                row.url.clone(),
                row.title.clone(),
                row.text.clone(),
                Some(row.algorithm.clone()),
                row.charset.clone(),
                row.error.as_ref().map(|e| e.kind.as_str().to_owned()),
                row.error.as_ref().map(|e| e.message.clone()),
            ];
            for (c, v) in self.columns.iter_mut().zip(values) {
                c.push(v);
            }
            if self.columns[0].len() >= PARQUET_ROW_GROUP {
                self.flush_group()?;
            }
            Ok(())
        }

        fn finish(&mut self) -> io::Result<()> {
            self.flush_group()?;
            if let Some(w) = self.writer.take() {
                w.close().map_err(err)?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::{ErrorKind, PageError};

    fn row(id: &str) -> Row {
        Row {
            id: id.into(),
            text: Some("t".into()),
            algorithm: "a".into(),
            ..Row::default()
        }
    }

    #[test]
    fn timed_sink_writes_a_line_a_row_beside_the_rows() {
        let inner: Box<dyn RowSink + Send> = Box::new(JsonlSink::new(Vec::new()));
        let mut sink = TimedSink::new(inner, Vec::new());
        let t = Timing {
            wall: Duration::from_micros(1500),
            cpu: Some(Duration::from_micros(1250)),
        };
        sink.write_timed(&row("a"), t).unwrap();
        // An id with a tab and a newline stays on its line and column.
        sink.write_timed(&row("b\tc\nd"), Timing { cpu: None, ..t })
            .unwrap();
        // A sink driven without times writes zeros.
        sink.write_row(&row("e")).unwrap();
        sink.finish().unwrap();
        let (_, times) = sink.into_inner();
        assert_eq!(
            String::from_utf8(times).unwrap(),
            "a\t0.001500000\t0.001250000\nb c d\t0.001500000\t\ne\t0.000000000\t\n"
        );
    }

    #[test]
    fn resume_cuts_a_torn_line_and_counts_ids() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o.jsonl");
        let tmp = tmp_path(&out);
        assert_eq!(tmp, dir.path().join("o.jsonl.tmp"));
        // Nothing there yet.
        assert_eq!(resume_jsonl(&out, &tmp).unwrap(), Resume::default());

        let mut sink = JsonlSink::new(Vec::new());
        for id in ["a", "b", "a"] {
            sink.write_row(&row(id)).unwrap();
        }
        // A row with an error kind this version does not know is kept.
        let mut newer = serde_json::to_string(&row("c")).unwrap();
        newer = newer.replace(
            "\"error\":null",
            "\"error\":{\"kind\":\"new\",\"message\":\"\"}",
        );
        let mut bytes = sink.into_inner();
        bytes.extend_from_slice(newer.as_bytes());
        bytes.push(b'\n');
        let whole = bytes.len();
        bytes.extend_from_slice(b"{\"id\":\"d\",\"al");
        std::fs::write(&tmp, &bytes).unwrap();

        let r = resume_jsonl(&out, &tmp).unwrap();
        assert_eq!(r.rows(), 4);
        assert_eq!((r.count("a"), r.count("b"), r.count("c")), (2, 1, 1));
        assert_eq!(std::fs::read(&tmp).unwrap(), &bytes[..whole]);

        // A finished output is moved back to .tmp; a line that is not a
        // row ends what is kept.
        std::fs::remove_file(&tmp).unwrap();
        std::fs::write(
            &out,
            "{\"id\":\"x\",\"algorithm\":\"a\"}\n{\"id\":\"junk\"}\n",
        )
        .unwrap();
        let r = resume_jsonl(&out, &tmp).unwrap();
        assert!(!out.exists());
        assert_eq!(r.rows(), 1);
        assert_eq!(std::fs::read_to_string(&tmp).unwrap().lines().count(), 1);
    }

    #[test]
    fn only_regular_files_are_renamed_over() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new.jsonl");
        assert!(matches!(Target::of(&new), Target::File { .. }));
        std::fs::write(&new, "").unwrap();
        assert!(Target::of(&new).resumable());
        assert_eq!(Target::of(Path::new("-")), Target::Stdout);
        assert_eq!(
            Target::of(Path::new("/dev/null")),
            Target::Direct("/dev/null".into())
        );
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink("/dev/null", &link).unwrap();
            let t = Target::of(&link);
            assert_eq!(t, Target::Direct(link.clone()));
            let (mut sink, _) = t.open(Format::Jsonl, false).unwrap();
            sink.write_row(&row("a")).unwrap();
            sink.finish().unwrap();
            t.commit().unwrap();
            assert!(
                std::fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
            assert!(!tmp_path(&link).exists());
        }
    }

    /// Issue 41, defect 2: a symlink planted at `OUT.tmp` made a run
    /// truncate and overwrite its target. The run is refused now, resumed
    /// or not, and the target is untouched.
    #[cfg(unix)]
    #[test]
    fn a_symlink_at_the_temporary_file_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious\n").unwrap();
        let out = dir.path().join("o.jsonl");
        std::os::unix::fs::symlink(&victim, tmp_path(&out)).unwrap();
        let t = Target::of(&out);
        for resume in [false, true] {
            let e = t.open(Format::Jsonl, resume).err().expect("refused");
            assert!(e.to_string().contains("symlink"), "{e}");
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
        }
        // A dangling one is refused too (it would create its target).
        std::fs::remove_file(tmp_path(&out)).unwrap();
        let nowhere = dir.path().join("created-by-the-run");
        std::os::unix::fs::symlink(&nowhere, tmp_path(&out)).unwrap();
        assert!(t.open(Format::Jsonl, false).is_err());
        assert!(!nowhere.exists());
    }

    /// Issue 41, defect 6: `--resume` with a FIFO at `OUT.tmp` waited on it
    /// for ever; it is refused at once now.
    #[cfg(unix)]
    #[test]
    fn a_fifo_at_the_temporary_file_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o.jsonl");
        let made = std::process::Command::new("mkfifo")
            .arg(tmp_path(&out))
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let t = Target::of(&out);
        std::thread::spawn(move || {
            let r = t.open(Format::Jsonl, true).map(|_| ());
            let _ = tx.send(r.map_err(|e| e.to_string()));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("still waiting on the FIFO after 30 s");
        let e = got.unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
    }

    /// Issue 41, defect 5: two runs with the same output mixed their rows
    /// (the one that exited 0 was left with the other's). The second is
    /// refused while the first holds `OUT.tmp`, resumed or not; once the
    /// first is done, the output is free again.
    #[test]
    fn a_second_run_on_the_same_output_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o.jsonl");
        let t = Target::of(&out);
        let (mut first, _) = t.open(Format::Jsonl, false).unwrap();
        first.write_row(&row("a")).unwrap();
        for resume in [false, true] {
            let e = t.open(Format::Jsonl, resume).err().expect("refused");
            assert!(matches!(e, Error::Locked { .. }), "{e}");
            assert!(e.to_string().contains("another run"), "{e}");
        }
        first.finish().unwrap();
        t.commit().unwrap();
        drop(first);
        assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 1);
        let (mut again, kept) = t.open(Format::Jsonl, true).unwrap();
        assert_eq!(kept.rows(), 1);
        again.write_row(&row("b")).unwrap();
        again.finish().unwrap();
        t.commit().unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
    }

    /// Issue 41, defect 6: a garbage last line was read whole when
    /// resuming (983 MB for a 1 GB line). A line over
    /// [`RESUME_LINE_LIMIT`] is taken for torn and cut, even one that
    /// would parse as a row (its page is extracted again).
    #[test]
    fn resume_reads_a_bounded_length_of_any_line() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o.jsonl");
        let tmp = tmp_path(&out);
        let mut bytes = serde_json::to_vec(&row("a")).unwrap();
        bytes.push(b'\n');
        let whole = bytes.len();
        let mut big = row("big");
        big.text = Some("x".repeat(RESUME_LINE_LIMIT as usize + 10));
        bytes.extend(serde_json::to_vec(&big).unwrap());
        bytes.push(b'\n');
        bytes.extend(serde_json::to_vec(&row("c")).unwrap());
        bytes.push(b'\n');
        std::fs::write(&tmp, &bytes).unwrap();
        drop(bytes);
        let r = resume_jsonl(&out, &tmp).unwrap();
        assert_eq!((r.rows(), r.count("a"), r.count("big")), (1, 1, 0));
        assert_eq!(std::fs::metadata(&tmp).unwrap().len(), whole as u64);
    }

    #[test]
    fn jsonl_rows_round_trip() {
        let mut sink = JsonlSink::new(Vec::new());
        let mut bad = row("e");
        bad.text = None;
        bad.error = Some(PageError::new(ErrorKind::Empty, "input is empty"));
        sink.write_row(&row("a")).unwrap();
        sink.write_row(&bad).unwrap();
        sink.finish().unwrap();
        let text = String::from_utf8(sink.into_inner()).unwrap();
        let rows: Vec<Row> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows, [row("a"), bad]);
    }
}
