//! Sweep members. Member `k` of a swept run, or of a metric over one (a metric table), is
//! named `base[k]` (`loop[2]`, `area[0]`): in run ids, metric names, manifest references and
//! the report. That name is written ([`MemberId`]'s `Display`) and read ([`MemberId::parse`],
//! [`base_of`]) here only.

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
    }
}
