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

/// Tick labels: short, without trailing zeros, scientific for very large or small values;
/// rounding noise around zero (relative to the axis `scale`) prints as 0.
pub(crate) fn format_tick(v: f64, scale: f64) -> String {
    if v == 0.0 || v.abs() < 1e-9 * scale {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        return format!("{v:.1e}");
    }
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        // A minus sign, not a hyphen.
        s.replacen('-', "−", 1)
    }
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

    #[test]
    fn crowded_log_axes_label_every_few_decades() {
        let (major, minor) = ticks(-12.2, 0.1, Scale::Log, 5);
        assert_eq!(major, vec![-12.0, -9.0, -6.0, -3.0, 0.0]);
        assert_eq!(minor.len(), 13 - 5, "the other decades");
        let (major, _) = ticks(-3.2, 0.1, Scale::Log, 5);
        assert_eq!(major, vec![-3.0, -2.0, -1.0, 0.0]);
    }
}
