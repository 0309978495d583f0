//! The CLI's build script: the eval crate's data probe (see
//! `crates/eval/build.rs`), and the `unchaff` binary linked with packed
//! relative relocations on Linux.
//!
//! A position-independent executable's relocations are applied by the
//! dynamic loader at start; as plain `RELA` entries they were 813 KB of
//! the binary read at every start, about 1 MB of the peak memory of every
//! run (`unchaff extract` on a tiny page: 9.1 → 7.5 MB; docs/BENCHMARKS.md,
//! peak memory). Packed (`DT_RELR`, GNU ld 2.38 and lld 15 on) they are
//! 11 KB. A linker that does not know the option ignores it with a
//! warning, and GNU ld leaves the relocations unpacked when the C library
//! cannot read them (glibc before 2.36), so the binary runs wherever it
//! did.

#[path = "../eval/build.rs"]
mod data;

fn main() {
    data::main();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
