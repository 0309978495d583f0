//! Common element and attribute names resolved to their atoms without
//! hashing.
//!
//! `LocalName::from(&str)` copies a short name into an inline atom, and
//! hashes a long one (more than seven bytes) through the static set's
//! perfect hash; our tree builder asked it for every tag (and then looked
//! the atom up in the page's map of interned names) and for every
//! attribute. Here the common names sit in a [`NameTable`] built at
//! compile time, looked up by a key read with a few loads ([`Key::of`]),
//! and give the atom `local_name!` makes for them, which is the atom
//! `LocalName::from` makes: the tree is the same, only the way to its
//! names changes. Any other name takes `LocalName::from`.

use html5ever::{LocalName, local_name};

/// The longest name a [`NameTable`] holds: two 8-byte words.
pub(crate) const MAX_KEY_LEN: usize = 16;

/// A name's key: its bytes little-endian in two words, zero-padded, and
/// its length (so that two names have the same key only if they are the
/// same name, NUL bytes included).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Key {
    lo: u64,
    hi: u64,
    len: u8,
}

/// Up to 8 bytes (at least one) little-endian in a word, zero-padded,
/// with two overlapping loads instead of a load a byte (a byte read twice
/// lands on the same place).
#[inline]
fn pack(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
        u64::from(lo) | u64::from(hi) << (8 * (n - 4))
    } else {
        u64::from(b[0])
            | u64::from(b[n / 2]) << (8 * (n / 2))
            | u64::from(b[n - 1]) << (8 * (n - 1))
    }
}

impl Key {
    /// The key of a name of 1 to [`MAX_KEY_LEN`] bytes.
    #[inline]
    pub(crate) fn of(name: &str) -> Option<Key> {
        let b = name.as_bytes();
        let (lo, hi) = match b.len() {
            1..=8 => (pack(b), 0),
            9..=MAX_KEY_LEN => {
                let mut lo = [0u8; 8];
                lo.copy_from_slice(&b[..8]);
                (u64::from_le_bytes(lo), pack(&b[8..]))
            }
            _ => return None,
        };
        Some(Key {
            lo,
            hi,
            len: b.len() as u8,
        })
    }

    /// [`Key::of`] at compile time, a byte at a time: the definition.
    const fn of_const(name: &str) -> Key {
        let b = name.as_bytes();
        assert!(!b.is_empty() && b.len() <= MAX_KEY_LEN, "name not keyable");
        let (mut lo, mut hi) = (0u64, 0u64);
        let mut i = 0;
        while i < b.len() {
            if i < 8 {
                lo |= (b[i] as u64) << (8 * i);
            } else {
                hi |= (b[i] as u64) << (8 * (i - 8));
            }
            i += 1;
        }
        Key {
            lo,
            hi,
            len: b.len() as u8,
        }
    }

    /// The slot a key starts its search at, of `2^bits`.
    #[inline]
    const fn slot(self, bits: u32) -> usize {
        /// An odd constant with well-mixed bits (2^64 over the golden
        /// ratio): multiplying by it spreads the keys' bytes into the top
        /// bits.
        const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
        let x = self.lo ^ self.hi.rotate_left(29) ^ self.len as u64;
        (x.wrapping_mul(MIX) >> (64 - bits)) as usize
    }
}

/// A slot of a [`NameTable`]: a key and its name's index, or empty
/// (`len == 0`).
#[derive(Clone, Copy)]
struct Slot {
    key: Key,
    index: u16,
}

/// A set of names built at compile time, answering a name's index in the
/// list it was built from: an open-addressed table (linear probing) of
/// `SLOTS` slots, a power of two at least twice the names, so that a
/// look-up is a few loads and compares. Names of more than
/// [`MAX_KEY_LEN`] bytes, or listed twice, stop the build.
pub(crate) struct NameTable<const SLOTS: usize> {
    slots: [Slot; SLOTS],
}

impl<const SLOTS: usize> NameTable<SLOTS> {
    /// The table of `names`.
    pub(crate) const fn new(names: &[&str]) -> Self {
        assert!(SLOTS.is_power_of_two() && names.len() * 2 <= SLOTS && names.len() <= 1 << 16);
        let empty = Slot {
            key: Key {
                lo: 0,
                hi: 0,
                len: 0,
            },
            index: 0,
        };
        let mut slots = [empty; SLOTS];
        let mut i = 0;
        while i < names.len() {
            let key = Key::of_const(names[i]);
            let mut s = key.slot(SLOTS.trailing_zeros());
            while slots[s].key.len != 0 {
                let k = slots[s].key;
                assert!(
                    !(k.lo == key.lo && k.hi == key.hi && k.len == key.len),
                    "name listed twice"
                );
                s = (s + 1) & (SLOTS - 1);
            }
            slots[s] = Slot {
                key,
                index: i as u16,
            };
            i += 1;
        }
        NameTable { slots }
    }

    /// The index of `name` in the list, if it is there.
    #[inline]
    pub(crate) fn get(&self, name: &str) -> Option<usize> {
        let key = Key::of(name)?;
        let mut s = key.slot(SLOTS.trailing_zeros());
        loop {
            let slot = &self.slots[s];
            if slot.key == key {
                return Some(slot.index as usize);
            }
            if slot.key.len == 0 {
                return None;
            }
            s = (s + 1) & (SLOTS - 1);
        }
    }
}

macro_rules! attributes {
    ($($konst:ident = $name:tt,)*) => {
        /// The common attribute names, in [`ATTRIBUTE_ATOMS`]' order.
        const COMMON_ATTRIBUTES: &[&str] = &[$($name,)*];
        /// Their atoms, as `LocalName::from` makes them.
        static ATTRIBUTE_ATOMS: [LocalName; COMMON_ATTRIBUTES.len()] = [$(local_name!($name),)*];
    };
}

/// Slots of the attributes' [`NameTable`]: a power of two, at least twice
/// their number.
const ATTRIBUTE_SLOTS: usize = 256;

/// The common attribute names' table.
static ATTRIBUTES: NameTable<ATTRIBUTE_SLOTS> = NameTable::new(COMMON_ATTRIBUTES);

/// The atom of a common HTML attribute name (lower case, as the tokenizer
/// gives it), without hashing; `None` for the others.
#[inline]
fn common_attribute(name: &str) -> Option<&'static LocalName> {
    ATTRIBUTES.get(name).map(|i| &ATTRIBUTE_ATOMS[i])
}

// The attributes most frequent on the dev pages once the pre-pass has cut
// the unread ones (`data-*`, `on*`, `aria-*` but `aria-hidden`), and the
// others the later stages read.
attributes! {
    CLASS = "class", HREF = "href", ID = "id", STYLE = "style", TYPE = "type",
    SRC = "src", REL = "rel", ALT = "alt", NAME = "name", TITLE = "title",
    ROLE = "role", WIDTH = "width", CONTENT = "content", HEIGHT = "height",
    VALUE = "value", TARGET = "target", ARIA_HIDDEN = "aria-hidden",
    TABINDEX = "tabindex", LOADING = "loading", SRCSET = "srcset", FOR = "for",
    MEDIA = "media", ITEMPROP = "itemprop", PROPERTY = "property",
    DECODING = "decoding", ITEMTYPE = "itemtype", ITEMSCOPE = "itemscope",
    HREFLANG = "hreflang", DEFER = "defer", ASYNC = "async", ACTION = "action",
    CHARSET = "charset", LANG = "lang", METHOD = "method", DIR = "dir",
    PLACEHOLDER = "placeholder", CROSSORIGIN = "crossorigin",
    HTTP_EQUIV = "http-equiv", INTEGRITY = "integrity", DATETIME = "datetime",
    COLSPAN = "colspan", ROWSPAN = "rowspan", ALIGN = "align", BORDER = "border",
    VALIGN = "valign", CELLPADDING = "cellpadding", CELLSPACING = "cellspacing",
    BGCOLOR = "bgcolor", COLOR = "color", FACE = "face", SIZE = "size",
    FRAMEBORDER = "frameborder", ALLOWFULLSCREEN = "allowfullscreen",
    ALLOW = "allow", REFERRERPOLICY = "referrerpolicy",
    AUTOCOMPLETE = "autocomplete", CHECKED = "checked", SELECTED = "selected",
    DISABLED = "disabled", LABEL = "label", SCOPE = "scope", HIDDEN = "hidden",
    XMLNS = "xmlns", ITEMID = "itemid", CITE = "cite", NOWRAP = "nowrap",
    POSTER = "poster", CONTROLS = "controls", REQUIRED = "required",
    MAXLENGTH = "maxlength", ACCEPT_CHARSET = "accept-charset",
    ENCTYPE = "enctype", SPAN = "span", START = "start", LONGDESC = "longdesc",
}

/// The atom of an attribute name, as `LocalName::from(name)` makes it;
/// the common ones without hashing.
#[inline]
pub(crate) fn attribute(name: &str) -> LocalName {
    match common_attribute(name) {
        Some(atom) => atom.clone(),
        None => LocalName::from(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names of every length the keys take, and some they do not.
    fn sample_names() -> Vec<String> {
        let mut names: Vec<String> = COMMON_ATTRIBUTES.iter().map(|s| s.to_string()).collect();
        for n in 1..=MAX_KEY_LEN + 2 {
            names.push("abcdefghijklmnopqrs"[..n].to_string());
            names.push("z".repeat(n));
            names.push(format!("{}-", "x".repeat(n)));
            names.push(format!("{}\0", "a".repeat(n)));
        }
        names.extend(
            [
                "",
                "\u{e9}t\u{e9}",
                "cl\u{e4}ss",
                "CLASS",
                "classx",
                "clas",
                "aria-hiddenx",
            ]
            .map(String::from),
        );
        names
    }

    #[test]
    fn keys_are_the_bytes_and_the_length() {
        for name in sample_names() {
            let n = name.len();
            let want = (1..=MAX_KEY_LEN).contains(&n).then(|| Key::of_const(&name));
            assert_eq!(Key::of(&name), want, "{name:?}");
        }
        assert_ne!(Key::of("a"), Key::of("a\0"));
        assert_ne!(Key::of("ab"), Key::of("ba"));
        assert_ne!(Key::of("abcdefgh"), Key::of("abcdefgh\0"));
    }

    #[test]
    fn tables_answer_each_name_listed_and_no_other() {
        let names: Vec<String> = (0..100)
            .map(|i| format!("n{i}-{}", "y".repeat(i % 12)))
            .collect();
        let listed: Vec<&str> = names.iter().map(String::as_str).collect();
        // Few slots: long probe runs, and wrapping around the end.
        let table: NameTable<256> = NameTable::new(&listed);
        for (i, name) in listed.iter().enumerate() {
            assert_eq!(table.get(name), Some(i), "{name}");
        }
        for name in sample_names() {
            assert_eq!(table.get(&name), None, "{name:?}");
        }
    }

    #[test]
    fn common_attributes_are_the_atoms_local_name_from_makes() {
        for name in COMMON_ATTRIBUTES {
            let atom = common_attribute(name).expect("listed");
            assert_eq!(*atom, LocalName::from(*name), "{name}");
            assert_eq!(&**atom, *name);
        }
        for name in sample_names() {
            assert_eq!(attribute(&name), LocalName::from(name.as_str()), "{name:?}");
            if !COMMON_ATTRIBUTES.contains(&name.as_str()) {
                assert_eq!(common_attribute(&name), None, "{name:?}");
            }
        }
    }
}
