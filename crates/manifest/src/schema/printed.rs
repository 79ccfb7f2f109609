//! A published value as the source prints it (`published: {line, printed: "0.740"}`): its
//! digits say how precisely it is known, half a unit of the last printed digit (issue 44,
//! item 4). The loader compares a check's tolerance with what the digits justify.

/// What the characters of a printed value may be.
pub const PRINTED_ALLOWED: &str = "the number as the source prints it: digits with an optional sign \
     (`-` or `−`), decimal point and exponent (`0.740`, `-17000`, `2.4e-3` for 2.4 × 10⁻³); a decimal \
     comma where the source prints one (`0,3831`)";

/// A number as printed: its value and half a unit of its last significant digit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Printed {
    /// The value the characters denote.
    pub value: f64,
    /// Half a unit of the last printed digit, in the printed unit. Trailing zeros of a number
    /// without a decimal point are not significant (`17000` is known to ±500, `0` to ±0.5);
    /// after a decimal point every digit is (`0.50` to ±0.005).
    pub half_unit: f64,
}

impl Printed {
    /// Reads a printed number, or says why it is not one. A decimal comma the source prints
    /// (`0,3831`) is its decimal point.
    pub fn parse(text: &str) -> Result<Printed, String> {
        let mut t = text.trim().replace('−', "-");
        if !t.contains('.') {
            t = t.replacen(',', ".", 1);
        }
        let (mantissa, exponent) = match t.split_once(['e', 'E']) {
            Some((m, e)) => (
                m,
                e.parse::<i32>()
                    .map_err(|_| format!("`{text}`: exponent `{e}` is not an integer"))?,
            ),
            None => (t.as_str(), 0),
        };
        let digits = mantissa.trim_start_matches(['-', '+']);
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let well_formed = !int.is_empty()
            && int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
            && (frac.is_empty() != digits.contains('.'));
        if !well_formed {
            return Err(format!("`{text}` is not a printed number"));
        }
        let value: f64 = t.parse().map_err(|_| format!("`{text}` is not a printed number"))?;
        if !value.is_finite() {
            return Err(format!("`{text}` is outside the range of a finite number"));
        }
        let last = if digits.contains('.') {
            -(frac.len() as i32)
        } else {
            let zeros = int.len() - int.trim_end_matches('0').len();
            if int.trim_end_matches('0').is_empty() {
                0
            } else {
                zeros as i32
            }
        };
        let half_unit = last
            .checked_add(exponent)
            .map(|e| 0.5 * 10f64.powi(e))
            .filter(|h| h.is_finite() && *h > 0.0)
            .ok_or_else(|| format!("`{text}`: its last digit is outside the range of a number"))?;
        Ok(Printed { value, half_unit })
    }

    /// The deviation from `expected` the digits justify, when `expected` is the printed value
    /// in another unit (`expected = ± printed × 10^k`, a unit prefix or a magnitude's sign):
    /// the half unit scaled by that power of ten. None when `expected` is not the printed
    /// value in any unit (a value computed from it: 1 − 34 %, 0.6/(2π)), so the digits alone
    /// cannot bound the tolerance.
    pub fn allowed(&self, expected: f64) -> Option<f64> {
        if self.value == 0.0 || expected == 0.0 {
            return (self.value == expected).then_some(self.half_unit);
        }
        let ratio = (expected / self.value).abs();
        let k = ratio.log10().round();
        let power = 10f64.powi(k as i32);
        ((ratio / power - 1.0).abs() < 1e-9).then_some(self.half_unit * power)
    }
}

#[cfg(test)]
mod tests {
    use super::Printed;

    fn half(t: &str) -> f64 {
        Printed::parse(t).expect("a number").half_unit
    }

    #[test]
    fn the_last_printed_digit_sets_the_half_unit() {
        assert_eq!(half("0.3019"), 0.5e-4);
        assert!(
            (half("0.50") - 0.005).abs() < 1e-15,
            "a trailing zero after the point counts"
        );
        assert_eq!(half("72"), 0.5);
        assert_eq!(half("17000"), 500.0, "trailing zeros of an integer do not count");
        assert_eq!(half("0"), 0.5);
        assert!((half("2.4e-3") - 0.5e-4).abs() < 1e-18);
        assert_eq!(Printed::parse("−0.553").expect("a number").value, -0.553);
        let comma = Printed::parse("0,3831").expect("a decimal comma");
        assert_eq!(comma.value, 0.3831);
        assert!((comma.half_unit - 0.5e-4).abs() < 1e-15);
        for bad in [
            "",
            ".5",
            "1.",
            "0.38,31",
            "1,000,000",
            ",5",
            "0.6/(2π)",
            "1e",
            "--1",
            "5 %",
            "1e400",
            "10e2147483647",
            "1e-400",
        ] {
            assert!(Printed::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn the_half_unit_follows_a_unit_prefix_and_not_arithmetic() {
        let p = Printed::parse("1.4").expect("a number"); // 1.4 mrad
        assert!((p.allowed(0.0014).expect("a unit") - 0.5e-4).abs() < 1e-15);
        assert!((p.allowed(-1.4).expect("a sign") - 0.05).abs() < 1e-15);
        assert_eq!(Printed::parse("34").expect("a number").allowed(0.66), None, "1 − 34 %");
        assert_eq!(Printed::parse("0").expect("a number").allowed(0.0), Some(0.5));
        assert_eq!(Printed::parse("0").expect("a number").allowed(0.1), None);
    }
}
