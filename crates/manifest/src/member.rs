//! Sweep members. Member `k` of a swept run, or of a metric over one (a metric table), is
//! named `base[k]` (`loop[2]`, `area[0]`): in run ids, metric names, manifest references and
//! the report. That name is written ([`MemberId`]'s `Display`) and read ([`MemberId::parse`],
//! [`base_of`], [`member_blind`]) here only: by this crate's rules (`scale_of`'s run) and by
//! `fric-pipeline`, which names the members of the sweeps it expands.

use std::fmt;

/// Member `k` of the swept run or metric table `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemberId<'a> {
    pub base: &'a str,
    pub k: usize,
}

impl<'a> MemberId<'a> {
    pub fn new(base: &'a str, k: usize) -> Self {
        Self { base, k }
    }

    /// The member a name `base[k]` stands for; `None` for a plain name (or a malformed one:
    /// no closing bracket, an index that is not a number).
    pub fn parse(name: &'a str) -> Option<Self> {
        let (base, k) = name.strip_suffix(']')?.split_once('[')?;
        Some(Self {
            base,
            k: k.parse().ok()?,
        })
    }
}

impl fmt::Display for MemberId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}[{}]", self.base, self.k)
    }
}

/// The name a reference starts with: `base` for `base[k]` (whatever follows the bracket), the
/// name itself otherwise.
pub fn base_of(name: &str) -> &str {
    name.split_once('[').map_or(name, |(b, _)| b)
}

/// `text` (an error, a line of the report) with every sweep member's index replaced by `k`
/// (`loop[3]` → `loop[k]`): alike for the members of a sweep that fail for one cause.
pub fn member_blind(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..=i]);
        rest = &rest[i + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with(']') {
            out.push('k');
            rest = &rest[digits..];
        }
    }
    out.push_str(rest);
    out
}

/// Whether the concrete run id `id` is `run` or a member `run[k]` of the swept run `run`.
pub fn is_run_or_member(id: &str, run: &str) -> bool {
    id == run || MemberId::parse(id).is_some_and(|m| m.base == run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_name_is_written_and_read_back() {
        let m = MemberId::new("loop", 12);
        assert_eq!(m.to_string(), "loop[12]");
        assert_eq!(MemberId::parse("loop[12]"), Some(m));
        assert_eq!(MemberId::parse("loop"), None);
        assert_eq!(MemberId::parse("loop[x]"), None);
        assert_eq!(MemberId::parse("loop[1"), None);
        assert_eq!(base_of("loop[3]"), "loop");
        assert_eq!(base_of("loop"), "loop");
        assert!(is_run_or_member("loop[3]", "loop") && is_run_or_member("loop", "loop"));
        assert!(!is_run_or_member("loops[3]", "loop") && !is_run_or_member("loop[3]", "loo"));
        let e = "run `loop[12]`: step [x] at t[3 of 7], a[]";
        assert_eq!(member_blind(e), "run `loop[k]`: step [x] at t[3 of 7], a[]");
    }
}
