//! A run of a manifest named from outside it, `<manifest>#<run>` (`duhem/fig14#slip`): in a
//! run's `from:`, in what a fit's other manifest takes from a fitted run, and in the plan's list
//! of who uses a run. Written ([`RunRef`]'s `Display`) and read ([`RunRef::parse`]) here only.

use std::fmt;

/// Run `run` of manifest `manifest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunRef<'a> {
    pub manifest: &'a str,
    pub run: &'a str,
}

impl<'a> RunRef<'a> {
    pub fn new(manifest: &'a str, run: &'a str) -> Self {
        Self { manifest, run }
    }

    /// The run a reference `<manifest>#<run>` names; `None` without a `#`.
    pub fn parse(text: &'a str) -> Option<Self> {
        let (manifest, run) = text.split_once('#')?;
        Some(Self { manifest, run })
    }

    /// The manifest a reference names: the part before `#` (the text itself without one).
    pub fn manifest_of(text: &'a str) -> &'a str {
        Self::parse(text).map_or(text, |r| r.manifest)
    }
}

impl fmt::Display for RunRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}#{}", self.manifest, self.run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_reference_is_written_and_read_back() {
        let r = RunRef::new("duhem/fig14", "slip");
        assert_eq!(r.to_string(), "duhem/fig14#slip");
        assert_eq!(RunRef::parse("duhem/fig14#slip"), Some(r));
        assert_eq!(RunRef::parse("duhem/fig14"), None);
        assert_eq!(RunRef::manifest_of("duhem/fig14#slip"), "duhem/fig14");
        assert_eq!(RunRef::manifest_of("duhem/fig14"), "duhem/fig14");
    }
}
