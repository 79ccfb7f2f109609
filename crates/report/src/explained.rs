//! What the report says beyond pass or fail: a check under its alternative readings
//! ([`Sensitivity`]) and the parameter values that would explain a discrepancy ([`Explained`]).

use serde::{Deserialize, Serialize};

/// A check across the alternative readings of its manifest's assumptions.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sensitivity {
    /// Met (or not met) under the manifest's reading and every alternative; never when a
    /// reading could not be evaluated (see `failed`).
    pub robust: bool,
    /// The readings under which the check could not be evaluated (a run failed, a metric was
    /// not computed): the check's robustness is unknown, not robust.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// The readings under which a cycle the check reads does not close (a loop area or a period
    /// quoted only from a cycle that closed): reported as such, not as failed; the check is not
    /// robust, since its value under them is not a loop's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open: Vec<String>,
    /// Each reading: its name, the computed value and whether it meets the expectation
    /// (`None`: the reading could not be evaluated).
    pub readings: Vec<ReadingOutcome>,
}

impl Sensitivity {
    /// The readings under which the check's result differs from the manifest's reading.
    pub fn flipped_by(&self, met: bool) -> Vec<&str> {
        self.readings
            .iter()
            .filter(|r| r.met.is_some_and(|m| m != met))
            .map(|r| r.name.as_str())
            .collect()
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ReadingOutcome {
    pub name: String,
    pub computed: Option<f64>,
    pub met: Option<bool>,
}

/// One parameter's explanation of a known discrepancy.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Explained {
    pub run: String,
    pub param: String,
    pub range: [f64; 2],
    /// The manifest's value.
    pub current: Option<f64>,
    /// The value that reproduces the expected number, if any in the range does.
    pub value: Option<f64>,
    /// The metric at `value`.
    pub metric_at_value: Option<f64>,
    /// The smallest and largest metric the scan of the range saw.
    pub scanned: [f64; 2],
    /// Metric evaluations (one run each, cached or computed).
    pub evaluations: usize,
    /// Sign changes of metric − expected the scan found (several: several values reproduce it;
    /// the first is given).
    pub brackets: usize,
    /// The relative precision `value` was found to (the manifest's `xtol`, default 1e-4).
    pub xtol: f64,
    /// Where the metric jumps across the expected value instead of passing through it (the
    /// first such bracket): no value there reproduces it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump: Option<Jump>,
    /// Scan points left out because the metric's cycle does not close there (no value exists).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<f64>,
    /// Points met while narrowing the bracket whose cycle does not close: skipped, the search
    /// resumed from another point of the bracket.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_narrowing: Vec<f64>,
}

/// A jump of a metric across a value: from `from` to `to` as the parameter crosses `at`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Jump {
    /// The bracket `[p₁, p₂]`, as narrow as the explanation's precision.
    pub at: [f64; 2],
    /// The metric at `p₁` and at `p₂`.
    pub from: f64,
    pub to: f64,
}

impl Explained {
    /// One line: `sigma of run dahl = 5.62500 (written 1.5) reproduces it (15 runs)`, then the
    /// scan points skipped because the cycle does not close there, if any.
    pub fn text(&self) -> String {
        let mut t = self.answer();
        let list = |ps: &[f64]| ps.iter().map(|&p| num6(p)).collect::<Vec<_>>().join(", ");
        if !self.skipped.is_empty() {
            t += &format!(
                "; {} of the scan points skipped, the cycle not closing there: {} = {}",
                self.skipped.len(),
                self.param,
                list(&self.skipped)
            );
        }
        if !self.skipped_narrowing.is_empty() {
            t += &format!(
                "; {} point(s) met while narrowing skipped, the cycle not closing there: {} = {}",
                self.skipped_narrowing.len(),
                self.param,
                list(&self.skipped_narrowing)
            );
        }
        t
    }

    fn answer(&self) -> String {
        let written = self.current.map_or(String::new(), |c| format!(" (written {})", num(c)));
        let jump = self.jump.map(|j| {
            format!(
                "the metric jumps from {} to {} at {} ∈ [{}, {}] (run `{}`)",
                num6(j.from),
                num6(j.to),
                self.param,
                num6(j.at[0]),
                num6(j.at[1]),
                self.run
            )
        });
        match (self.value, jump) {
            (None, Some(jump)) => {
                return format!(
                    "{jump}; no value reproduces it{written} ({} runs){}",
                    self.evaluations,
                    if self.brackets > 1 {
                        format!(
                            ", nor one in the other {} brackets in [{}, {}]",
                            self.brackets - 1,
                            num(self.range[0]),
                            num(self.range[1])
                        )
                    } else {
                        String::new()
                    }
                )
            }
            (Some(_), Some(jump)) => {
                let mut no_jump = self.clone();
                no_jump.jump = None;
                return format!("{}; below it {jump}", no_jump.answer());
            }
            _ => {}
        }
        match self.value {
            Some(v) => format!(
                "{} of run `{}` = {} (to a relative {:e}) reproduces it{written}, found in {} runs{}",
                self.param,
                self.run,
                num6(v),
                self.xtol,
                self.evaluations,
                if self.brackets > 1 {
                    format!("; the metric crosses it {} times in [{}, {}], the smallest value that reproduces it given", self.brackets, num(self.range[0]), num(self.range[1]))
                } else {
                    String::new()
                }
            ),
            None => format!(
                "no value of {} (run `{}`) in [{}, {}] reproduces it{written}: the metric spans [{}, {}] there ({} runs)",
                self.param,
                self.run,
                num(self.range[0]),
                num(self.range[1]),
                num6(self.scanned[0]),
                num6(self.scanned[1]),
                self.evaluations
            ),
        }
    }
}

/// Whether `x` reads well in plain decimal: zero, or a magnitude in [1e-4, 1e6).
fn plain(x: f64) -> bool {
    x == 0.0 || (1e-4..1e6).contains(&x.abs())
}

/// `x` in the fewest digits that read back as `x`: plain decimal for moderate magnitudes,
/// scientific beyond them (`1e300`, not 301 digits; `1e-300`, not 0).
fn num(x: f64) -> String {
    if plain(x) || !x.is_finite() {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// `x` to six decimals, or to six significant digits in scientific form beyond moderate
/// magnitudes (where six decimals would print hundreds of digits or round it to zero).
fn num6(x: f64) -> String {
    if plain(x) || !x.is_finite() {
        format!("{x:.6}")
    } else {
        format!("{x:.6e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extreme_ranges_and_values_print_compactly() {
        let x = Explained {
            run: "r".into(),
            param: "fc".into(),
            range: [1e-300, 1e300],
            current: Some(2.5e-7),
            value: None,
            metric_at_value: None,
            scanned: [-3e200, 0.25],
            evaluations: 9,
            brackets: 0,
            xtol: 1e-4,
            jump: None,
            skipped: Vec::new(),
            skipped_narrowing: Vec::new(),
        };
        let t = x.text();
        assert_eq!(
            t,
            "no value of fc (run `r`) in [1e-300, 1e300] reproduces it (written 2.5e-7): the metric spans \
             [-3.000000e200, 0.250000] there (9 runs)"
        );
        assert_eq!(
            (num(0.0), num(0.5), num(123456.0), num(f64::INFINITY)),
            ("0".into(), "0.5".into(), "123456".into(), "inf".into())
        );
    }

    #[test]
    fn a_jump_is_reported_with_both_sides_never_as_a_root() {
        let x = Explained {
            run: "pull".into(),
            param: "vp".into(),
            range: [0.1, 0.5],
            current: Some(0.3),
            value: None,
            metric_at_value: None,
            scanned: [0.0, 0.25],
            evaluations: 22,
            brackets: 1,
            xtol: 1e-4,
            jump: Some(Jump {
                at: [0.142535, 0.142549],
                from: 0.137,
                to: 0.0989,
            }),
            skipped: Vec::new(),
            skipped_narrowing: Vec::new(),
        };
        let t = x.text();
        assert!(
            t.starts_with("the metric jumps from 0.137000 to 0.098900 at vp ∈ [0.142535, 0.142549] (run `pull`); no value reproduces it"),
            "{t}"
        );
        assert!(!t.contains(" of run ") && !t.contains(" = "), "{t}");
    }

    /// Code review M2: the scan points skipped for an open cycle are named in the text.
    #[test]
    fn skipped_scan_points_are_named() {
        let x = Explained {
            run: "drbm_b".into(),
            param: "delta".into(),
            range: [0.003, 0.012],
            current: Some(0.01),
            value: Some(0.005055),
            metric_at_value: Some(0.35738),
            scanned: [0.19, 0.38],
            evaluations: 14,
            brackets: 1,
            xtol: 1e-2,
            jump: None,
            skipped: vec![0.010875, 0.012],
            skipped_narrowing: Vec::new(),
        };
        let t = x.text();
        assert!(
            t.ends_with("; 2 of the scan points skipped, the cycle not closing there: delta = 0.010875, 0.012000"),
            "{t}"
        );
        // Points met while narrowing are named after the scan's (issue 43, s53).
        let n = Explained {
            skipped_narrowing: vec![0.0051],
            ..x
        };
        let t = n.text();
        assert!(
            t.ends_with(
                "0.012000; 1 point(s) met while narrowing skipped, the cycle not closing there: delta = 0.005100"
            ),
            "{t}"
        );
    }
}
