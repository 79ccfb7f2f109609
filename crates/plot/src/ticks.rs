//! Axis ticks: tick positions (nice numbers on linear axes, decades and 2…9·10^k on log axes)
//! and their labels.

use fric_manifest::Scale;

/// A linear f64 coordinate with the tick positions given (see [`ticks`]); labels come from the
/// mesh's formatters.
pub(crate) struct Ticked {
    inner: plotters::coord::types::RangedCoordf64,
    major: Vec<f64>,
    minor: Vec<f64>,
}

impl Ticked {
    pub(crate) fn new(r: std::ops::Range<f64>, major: Vec<f64>, minor: Vec<f64>) -> Self {
        Self {
            inner: r.into(),
            major,
            minor,
        }
    }
}

impl plotters::coord::ranged1d::Ranged for Ticked {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(v, limit)
    }
    fn key_points<Hint: plotters::coord::ranged1d::KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.minor.clone()
        } else {
            self.major.clone()
        }
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

/// Major (labelled) and minor tick positions of an axis over `[lo, hi]` in plotting coordinates
/// (log10 of the value on a log axis). Linear: at most `max` of plotters' nice numbers, no minor ticks (a light
/// major grid only). Log: every decade `10^k` labelled (every 2nd, 3rd… when more than `max`
/// would not fit, the others minor), minor ticks at `2…9·10^k`; an axis that
/// spans no whole decade labels its minor ticks instead.
pub(crate) fn ticks(lo: f64, hi: f64, scale: Scale, max: usize) -> (Vec<f64>, Vec<f64>) {
    use plotters::coord::ranged1d::Ranged;
    if scale != Scale::Log {
        return (
            plotters::coord::types::RangedCoordf64::from(lo..hi).key_points(max.max(2)),
            vec![],
        );
    }
    let decades: Vec<f64> = ((lo.ceil() as i64)..=(hi.floor() as i64)).map(|k| k as f64).collect();
    let minor: Vec<f64> = ((lo.floor() as i64)..=(hi.floor() as i64))
        .flat_map(|k| (2..10).map(move |m| k as f64 + (m as f64).log10()))
        .filter(|v| (lo..=hi).contains(v))
        .collect();
    if decades.is_empty() {
        return (minor, vec![]);
    }
    // More decades than labels fit: label every `step`-th decade (multiples of `step`), the
    // others become minor ticks and the 2…9 ticks are dropped.
    let step = decades.len().div_ceil(max.max(2)) as i64;
    if step == 1 {
        return (decades, minor);
    }
    let (major, other): (Vec<f64>, Vec<f64>) = decades.iter().partition(|d| (**d as i64).rem_euclid(step) == 0);
    (major, other)
}

/// The label of a log-axis tick at `v = log10(value)`: `10⁻²` at a decade, `2·10⁻³` between.
pub(crate) fn decade_label(v: f64) -> String {
    let sup = |k: i64| -> String {
        k.to_string()
            .chars()
            .map(|c| match c {
                '-' => '⁻',
                d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d.to_digit(10).unwrap_or(0) as usize],
            })
            .collect()
    };
    let k = v.floor();
    let m = 10f64.powf(v - k);
    if (v - v.round()).abs() < 1e-9 {
        format!("10{}", sup(v.round() as i64))
    } else {
        format!("{}·10{}", m.round(), sup(k as i64))
    }
}

/// How the labels of one linear axis are printed: one format for all its ticks, with as many
/// decimals as the smallest needed to tell every tick apart and print it exactly (report Fig
/// 3.8's energy axis printed 0.0322, 0.0322, 0.0322 at a fixed 4 decimals), trailing zeros
/// dropped; scientific for an axis whose largest tick is very large or small. Rounding noise
/// around zero (relative to the axis' largest tick) prints as 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TickFormat {
    decimals: usize,
    scientific: bool,
    /// Magnitudes below this print as 0.
    zero: f64,
}

/// The most decimals a tick label gets (f64 resolves no more on an axis of nice numbers).
const MAX_DECIMALS: usize = 15;

impl TickFormat {
    /// The format of an axis whose labelled ticks are `ticks` (values as printed: already
    /// divided by the axis' power of ten).
    pub(crate) fn new(ticks: &[f64]) -> Self {
        let big = ticks.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let step = ticks
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .filter(|d| *d > 0.0)
            .fold(f64::INFINITY, f64::min);
        // One tick: resolve it to 1e-6 of itself; several: to 1e-6 of their spacing.
        let tol = 1e-6 * if step.is_finite() { step } else { big };
        let exact = |d: usize| {
            let k = 10f64.powi(d as i32);
            ticks.iter().all(|v| ((v * k).round() / k - v).abs() <= tol)
        };
        let decimals = (0..MAX_DECIMALS).find(|d| exact(*d)).unwrap_or(MAX_DECIMALS);
        Self {
            decimals,
            scientific: big > 0.0 && !(1e-3..1e5).contains(&big),
            zero: 1e-9 * big,
        }
    }

    /// The same decimals, never scientific (see [`labelled`]).
    pub(crate) fn in_decimals(self) -> Self {
        Self {
            scientific: false,
            ..self
        }
    }

    /// The label of the tick at `v` (as printed).
    pub(crate) fn label(&self, v: f64) -> String {
        if v == 0.0 || v.abs() < self.zero {
            return "0".into();
        }
        let s = if self.scientific {
            // The mantissa keeps the decimals the axis needs at this tick's exponent.
            let e = v.abs().log10().floor() as i32;
            let p = (self.decimals as i32 + e).clamp(0, MAX_DECIMALS as i32) as usize;
            let s = format!("{v:.p$e}");
            let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
            format!("{}e{e}", trim_zeros(m))
        } else {
            let d = self.decimals;
            trim_zeros(&format!("{v:.d$}")).to_string()
        };
        if s == "-0" {
            "0".into()
        } else {
            // Minus signs, not hyphens (also in an exponent).
            s.replace('-', "\u{2212}")
        }
    }
}

/// `s` without the trailing zeros of its decimals (and without a bare trailing point).
fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// The labels of the major ticks `major` (plotting coordinates) of an axis with scale `scale`,
/// whose labels print the value times `f` (the inverse of the axis' power of ten): decade
/// labels on a log axis, one [`TickFormat`] otherwise, in decimals.
///
/// Decimals on every linear axis, so the panels of a figure and its companions print one
/// number format per quantity: an axis' power of ten is chosen for the largest magnitude of
/// its unit across the figure group ([`axis_power`], shared by `ranges::unit_powers`), which
/// then prints between 0.01 and 9999; an axis whose own ticks are far smaller than its
/// group's (report Fig 3.18(a), ±3·10⁻⁴ rad beside (b)'s 0.0015 rad and companion 2.16's
/// decimals) prints them with more decimals, not in e-notation beside decimals.
pub(crate) fn labelled(major: &[f64], scale: Scale, f: f64) -> Vec<(f64, String)> {
    if scale == Scale::Log {
        return major.iter().map(|v| (*v, decade_label(*v))).collect();
    }
    let printed: Vec<f64> = major.iter().map(|v| v * f).collect();
    let fmt = TickFormat::new(&printed).in_decimals();
    major.iter().zip(&printed).map(|(v, p)| (*v, fmt.label(*p))).collect()
}

/// The power of ten a linear axis over `[lo, hi]` is shown in, so its tick labels are short
/// numbers: 0 when the largest magnitude is between 0.01 and 9999, otherwise a multiple of 3
/// (an SI prefix).
pub(crate) fn axis_power(lo: f64, hi: f64) -> i32 {
    let m = lo.abs().max(hi.abs());
    if !(m.is_finite() && m > 0.0) {
        return 0;
    }
    let e = m.log10().floor() as i32;
    if (-2..=3).contains(&e) {
        0
    } else {
        3 * e.div_euclid(3)
    }
}

/// Units whose symbol takes an SI prefix (the first symbol of a compound unit is prefixed).
const PREFIXABLE: &[&str] = &["m", "N", "J", "s", "rad", "W", "A", "V", "Pa", "Hz"];

/// The axis label with its unit in brackets, the unit carrying the power `k` of ten the tick
/// labels are divided by: an SI prefix on the unit's first symbol where it takes one (`m` →
/// `µm`, `N-m` → `mN-m`), otherwise a leading `10^k`.
pub(crate) fn scaled_label(label: &str, unit: Option<&str>, k: i32) -> String {
    match scaled_unit(unit, k) {
        Some(u) => format!("{label} [{u}]"),
        None => label.to_string(),
    }
}

/// The unit carrying the power `k` of ten (see [`scaled_label`]), if there is one to print.
pub(crate) fn scaled_unit(unit: Option<&str>, k: i32) -> Option<String> {
    let unit = unit.filter(|u| !u.is_empty());
    if k == 0 {
        return unit.map(str::to_string);
    }
    let prefix = match k {
        -9 => Some("n"),
        -6 => Some("µ"),
        -3 => Some("m"),
        3 => Some("k"),
        6 => Some("M"),
        9 => Some("G"),
        _ => None,
    };
    Some(match (unit, prefix) {
        (Some(u), Some(p)) => {
            let end = u.find(['/', '-', '·', '^', ' ', '*']).unwrap_or(u.len());
            if PREFIXABLE.contains(&&u[..end]) {
                format!("{p}{u}")
            } else {
                format!("10^{{{k}}} {u}")
            }
        }
        (Some(u), None) => format!("10^{{{k}}} {u}"),
        (None, _) => format!("10^{{{k}}}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_and_huge_axes_get_si_prefixes() {
        assert_eq!(axis_power(-1.1e-4, 1.1e-4), -6);
        assert_eq!(axis_power(0.0, 0.5), 0);
        assert_eq!(axis_power(-3e-3, 2e-3), -3);
        assert_eq!(axis_power(0.0, 2e4), 3);
        assert_eq!(axis_power(0.0, 0.0), 0);
        assert_eq!(scaled_label("u", Some("m"), -6), "u [µm]");
        assert_eq!(scaled_label("v", Some("m/s"), -3), "v [mm/s]");
        assert_eq!(scaled_label("T", Some("N-m"), -3), "T [mN-m]");
        assert_eq!(scaled_label("J", Some("kg-m^2"), -6), "J [10^{-6} kg-m^2]");
        assert_eq!(scaled_label("n", None, 3), "n [10^{3}]");
        assert_eq!(scaled_label("F", Some("N"), 0), "F [N]");
        assert_eq!(scaled_label("x", Some("m"), -12), "x [10^{-12} m]");
    }

    /// Labels of ticks `v` as one axis prints them.
    fn labels(v: &[f64]) -> Vec<String> {
        labelled(v, Scale::Linear, 1.0).into_iter().map(|(_, l)| l).collect()
    }

    #[test]
    fn close_ticks_get_the_decimals_that_tell_them_apart() {
        // Report Fig 3.8's energy axis: a fixed 4 decimals printed 0.0322 three times.
        let v = [0.03212, 0.03214, 0.03216, 0.03218, 0.0322];
        assert_eq!(labels(&v), ["0.03212", "0.03214", "0.03216", "0.03218", "0.0322"]);
        assert_eq!(labels(&[0.0, 0.5, 1.0, 1.5]), ["0", "0.5", "1", "1.5"]);
        assert_eq!(labels(&[-10.0, 0.0, 10.0, 20.0]), ["\u{2212}10", "0", "10", "20"]);
        // Float noise of plotters' tick arithmetic does not add digits.
        assert_eq!(labels(&[0.1, 0.2, 0.30000000000000004]), ["0.1", "0.2", "0.3"]);
        assert_eq!(labels(&[0.9999999999999999, 1.0005, 1.001]), ["1", "1.0005", "1.001"]);
    }

    /// Labels of ticks `v` in a [`TickFormat`] of their own (scientific where they are tiny or
    /// huge).
    fn own_format(v: &[f64]) -> Vec<String> {
        let f = TickFormat::new(v);
        v.iter().map(|x| f.label(*x)).collect()
    }

    #[test]
    fn an_axis_prints_one_format() {
        // Report Fig 3.17(b) mixed 0.0025 and 5.0e-4 on one axis.
        assert_eq!(labels(&[0.0005, 0.001, 0.0015]), ["0.0005", "0.001", "0.0015"]);
        assert_eq!(own_format(&[2e5, 4e5, 6e5]), ["2e5", "4e5", "6e5"]);
        assert_eq!(
            own_format(&[1.5e-5, 2e-5, 2.5e-5]),
            ["1.5e\u{2212}5", "2e\u{2212}5", "2.5e\u{2212}5"]
        );
        // Rounding noise at zero.
        assert_eq!(labels(&[-1.0, 1e-17, 1.0]), ["\u{2212}1", "0", "1"]);
    }

    /// Panels of one figure group print one format per quantity: report Fig 3.18(a)'s
    /// ±3·10⁻⁴ rad, shown in rad like (b)'s 0.0015 rad and its companion's, reads in decimals
    /// as they do (it printed 3e−4 … −3e−4 beside them).
    #[test]
    fn an_axis_in_its_groups_unit_prints_decimals_as_the_group() {
        assert_eq!(axis_power(-0.05, 0.05), 0, "the group's rad");
        assert_eq!(
            labels(&[-3e-4, -1.5e-4, 0.0, 1.5e-4, 3e-4]),
            ["\u{2212}0.0003", "\u{2212}0.00015", "0", "0.00015", "0.0003"]
        );
        assert_eq!(
            labels(&[-0.0015, -0.001, 0.0, 0.001]),
            ["\u{2212}0.0015", "\u{2212}0.001", "0", "0.001"]
        );
    }

    #[test]
    fn crowded_log_axes_label_every_few_decades() {
        let (major, minor) = ticks(-12.2, 0.1, Scale::Log, 5);
        assert_eq!(major, vec![-12.0, -9.0, -6.0, -3.0, 0.0]);
        assert_eq!(minor.len(), 13 - 5, "the other decades");
        let (major, _) = ticks(-3.2, 0.1, Scale::Log, 5);
        assert_eq!(major, vec![-3.0, -2.0, -1.0, 0.0]);
    }
}
