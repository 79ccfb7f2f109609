//! Whether a `printed` number occurs in its `published.quote` (issue 44): the number as the
//! source prints it must be one of the numbers of the quoted words, up to the typographic
//! variants a text conversion produces (experiments/README.md, "Tolerances from the source's
//! digits"): a unicode minus or dash for `-`, thin and no-break spaces inside a number, a
//! power of ten written `× 10^{-3}`, `\times 10^{-3}`, `· 10⁻³` or `e-3`. A decimal comma is
//! read only where `printed` writes one (`"0,3831"`): a comma in a quote is otherwise a
//! separator (`(0,1)`, `1,000`). A dash between two numbers is a range (`0.3–0.5`, `0.30-0.37`)
//! or a difference, not a minus.

/// What the rule accepts, for an error's `allowed`.
pub const PRINTED_IN_QUOTE: &str = "a `printed` number that occurs, digit for digit, in the quote: \
     `-` may be printed `−`, a power of ten `× 10^{-3}`, `\\times 10^{-3}`, `· 10⁻³` or `e-3`, \
     thin or no-break spaces may split the digits, a decimal comma matches only a `printed` \
     written with one (`\"0,3831\"`), a dash between two numbers is a range and not a minus, and a \
     magnitude may be recorded without its printed sign (then `expected` has that sign)";

/// A number as written: its sign (`-`, `+` or none), its digits with the decimal point as
/// printed, and its power of ten.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Written {
    sign: Option<char>,
    mantissa: String,
    exponent: i64,
}

/// Whether the number `printed` occurs in `quote`. A printed value without a sign matches a
/// signed occurrence (a magnitude); a signed one needs the same sign. A comma in the quote is
/// a decimal point only when `printed` writes its point as a comma.
pub fn printed_in_quote(printed: &str, quote: &str) -> bool {
    !occurrences(printed, quote).is_empty()
}

/// The sign the quote prints on every occurrence of an unsigned `printed` (`-` for `0.553` in
/// `(−1, −0.553)`): the sign a value recorded as its magnitude must have. None when `printed`
/// is signed, does not occur, or occurs unsigned or with both signs.
pub fn quoted_sign(printed: &str, quote: &str) -> Option<char> {
    let signed = numbers(&normalise(printed), false)
        .first()
        .is_some_and(|p| p.sign.is_some());
    let signs = if signed {
        Vec::new()
    } else {
        occurrences(printed, quote)
    };
    let first = *signs.first()?;
    signs.iter().all(|s| *s == first).then_some(first).flatten()
}

/// The signs of the occurrences of `printed` in `quote` (empty when it does not occur).
fn occurrences(printed: &str, quote: &str) -> Vec<Option<char>> {
    let comma = decimal_comma(printed);
    let Some(p) = numbers(&normalise(printed), comma).into_iter().next() else {
        return Vec::new();
    };
    numbers(&normalise(quote), comma)
        .into_iter()
        .filter(|q| q.mantissa == p.mantissa && q.exponent == p.exponent && (p.sign.is_none() || p.sign == q.sign))
        .map(|q| q.sign)
        .collect()
}

/// Whether `printed` writes its decimal point as a comma between two digits (`0,3831`).
fn decimal_comma(printed: &str) -> bool {
    let c: Vec<char> = printed.chars().collect();
    c.windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == ',' && w[2].is_ascii_digit())
}

/// The text with minus signs and dashes as `-` (a dash just after a digit, or an en or figure
/// dash after a digit and spaces, is a range or a difference, written as a space), spaces that
/// cannot end a number removed, and superscript exponents as `^-3`.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut superscript = false;
    for c in text.chars() {
        let was = std::mem::replace(&mut superscript, false);
        match c {
            '\u{2012}' | '\u{2013}' if after_digit(out.trim_end()) => out.push(' '),
            '-' | '\u{2212}' | '\u{2010}' | '\u{2011}' if after_digit(&out) => out.push(' '),
            '\u{2212}' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' => out.push('-'),
            '\u{00A0}' | '\u{2006}' | '\u{2008}' | '\u{2009}' | '\u{200A}' | '\u{202F}' => {}
            '⁻' => {
                out.push_str("^-");
                superscript = true;
            }
            '⁰' | '¹' | '²' | '³' | '⁴' | '⁵' | '⁶' | '⁷' | '⁸' | '⁹' => {
                if !was {
                    out.push('^');
                }
                out.push(superscript_digit(c));
                superscript = true;
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether `text` ends with a digit (a dash there joins a range or a difference).
fn after_digit(text: &str) -> bool {
    text.ends_with(|c: char| c.is_ascii_digit())
}

/// The ASCII digit of a superscript digit.
fn superscript_digit(c: char) -> char {
    let i = "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|s| s == c).unwrap_or(0);
    char::from(b'0' + i as u8)
}

/// Every number written in `text`, each with its sign and power of ten (`s_1`, `I2` and
/// `10^{-3}`'s exponent are no numbers of their own). With `comma`, a comma between two digits is a
/// decimal point (`0,3831`).
fn numbers(text: &str, comma: bool) -> Vec<Written> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let starts = c[i].is_ascii_digit() && !continues_a_name(&c, i);
        if !starts {
            i += 1;
            continue;
        }
        let sign = sign_before(&c, i);
        let (mantissa, end) = mantissa(&c, i, comma);
        let (exponent, end) = exponent(&c, end).unwrap_or((0, end));
        out.push(Written {
            sign,
            mantissa,
            exponent,
        });
        i = end.max(i + 1);
    }
    out
}

/// Whether the digit at `i` belongs to a name, a subscript or exponent, or a longer number:
/// after a letter, digit, `_`, `^`, `.`, or a brace opened by `_{` or `^{` (`\frac{0.6}` is a
/// number, `s_{1}` is not).
fn continues_a_name(c: &[char], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).map(|j| c[j]);
    match before(1) {
        None => false,
        Some('{') => matches!(before(2), Some('_' | '^')),
        Some(p) => p.is_alphanumeric() || matches!(p, '_' | '^' | '.'),
    }
}

/// The sign written just before the digit at `i`.
fn sign_before(c: &[char], i: usize) -> Option<char> {
    (i > 0 && matches!(c[i - 1], '-' | '+')).then(|| c[i - 1])
}

/// The digits and decimal point from `i`, and where they end.
fn mantissa(c: &[char], i: usize, comma: bool) -> (String, usize) {
    let mut s = String::new();
    let mut j = i;
    let mut point = false;
    while j < c.len() {
        let d = c[j];
        let decimal = (d == '.' || (comma && d == ',')) && !point && c.get(j + 1).is_some_and(char::is_ascii_digit);
        if d.is_ascii_digit() {
            s.push(d);
        } else if decimal {
            point = true;
            s.push('.');
        } else {
            break;
        }
        j += 1;
    }
    (s, j)
}

/// A power of ten written after a mantissa ending at `j`: `e-3`, `× 10^{-3}`, `\times 10^-3`,
/// `· 10^{-3}`, `\cdot 10^{-3}`; its value and where it ends.
fn exponent(c: &[char], j: usize) -> Option<(i64, usize)> {
    if matches!(c.get(j), Some('e' | 'E')) {
        return signed_int(c, j + 1);
    }
    let mut k = skip_spaces(c, j);
    let rest: String = c[k..].iter().take(7).collect();
    let times = ["×", "\\times", "·", "\\cdot", "*"]
        .into_iter()
        .find(|t| rest.starts_with(t))?;
    k = skip_spaces(c, k + times.chars().count());
    if c.get(k) != Some(&'1') || c.get(k + 1) != Some(&'0') || c.get(k + 2) != Some(&'^') {
        return None;
    }
    k += 3;
    let braced = c.get(k) == Some(&'{');
    let (e, mut end) = signed_int(c, k + usize::from(braced))?;
    if braced {
        (c.get(end) == Some(&'}')).then_some(())?;
        end += 1;
    }
    Some((e, end))
}

/// An integer with an optional sign from `k`, and where it ends.
fn signed_int(c: &[char], k: usize) -> Option<(i64, usize)> {
    let mut j = k;
    if matches!(c.get(j), Some('-' | '+')) {
        j += 1;
    }
    let digits = c[j.min(c.len())..].iter().take_while(|d| d.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let s: String = c[k..j + digits].iter().collect();
    s.parse().ok().map(|e| (e, j + digits))
}

/// The index of the first non-space character from `k`.
fn skip_spaces(c: &[char], k: usize) -> usize {
    k + c[k.min(c.len())..].iter().take_while(|d| d.is_whitespace()).count()
}

#[cfg(test)]
mod tests {
    use super::printed_in_quote as inq;

    #[test]
    fn the_printed_number_must_be_one_of_the_quoted_numbers() {
        assert!(inq("0.3019", "the peak is 0.3019 Nm"));
        assert!(!inq("0.3019", "the peak is 0.3091 Nm"), "a transposed digit");
        assert!(!inq("0.3", "v_s = 0.35 m/s"), "a prefix of a longer number");
        assert!(!inq("0.3", "x = 10.3"), "a suffix of a longer number");
        assert!(!inq("0.50", "a = 0.5"), "the digits as printed, trailing zero included");
        assert!(!inq("1", "s_1 = 6"), "a subscript is no number");
        assert!(!inq("1", "s_{1} = 6"), "a braced subscript neither");
        assert!(inq("0.6", "v_s = \\frac{0.6}{2\\pi}"), "a fraction's numerator is");
        assert!(!inq("2", "I2 = (0, 1)"), "nor a label's digit");
        assert!(!inq("3", "2.4 × 10^{-3}"), "nor an exponent");
    }

    #[test]
    fn typographic_variants_are_the_same_number() {
        assert!(inq("-0.553", "I1 = (−1, −0.553)"), "a unicode minus");
        assert!(inq("0.553", "I1 = (−1, −0.553)"), "a magnitude");
        assert!(!inq("-0.553", "I3 = (0.553, 1)"), "a sign the quote does not print");
        assert!(inq("17000", "k = 17\u{2009}000 N/m"), "a thin space");
        assert!(inq("2.4e-3", "E_diss = 2.4 × 10^{-3} J"));
        assert!(inq("5e-4", "approximately 5×10^{-4} J."));
        assert!(inq("2.4e-3", "2.4 \\times 10^{-3}"));
        assert!(inq("2.4e-3", "2.4 · 10⁻³"));
        assert!(inq("2.4e-3", "2.4e-3"));
        assert!(!inq("2.4e-3", "2.4 × 10^{-4}"), "another power");
        assert!(!inq("2.4", "2.4 × 10^{-3}"), "the power of ten is part of the number");
        assert!(inq("1", "I2 = (0,1)"), "a comma between numbers");
    }

    #[test]
    fn a_decimal_comma_is_read_only_where_printed_writes_one() {
        assert!(inq("0,3831", "a ∈ [0.3809, 0,3831] Nm"), "a decimal comma, as printed");
        assert!(!inq("0.3831", "a ∈ [0.3809, 0,3831] Nm"), "a point is not a comma");
        assert!(!inq("0.1", "I2 = (0,1)"), "a pair is no decimal");
        assert!(!inq("1.000", "a force of 1,000 N"), "a thousands separator is no point");
        assert!(inq("0", "I2 = (0,1)") && inq("1", "I2 = (0,1)"));
    }

    #[test]
    fn an_en_dash_between_numbers_is_a_range() {
        assert!(!inq("-0.5", "μ = 0.3–0.5"), "a range's upper end has no sign");
        assert!(!inq("-0.5", "μ = 0.3 – 0.5"), "nor with spaces");
        assert!(inq("0.5", "μ = 0.3–0.5"));
        assert!(inq("-0.5", "x = –0.5"), "an en dash before a number is a minus");
        assert!(inq("-0.5", "(−1, –0.5)"), "also after a comma");
        assert!(
            !inq("-0.37", "approximately 0.30-0.37 Nm"),
            "a hyphen just after a digit too"
        );
        assert!(
            inq("-0.3", "0.5 −0.3"),
            "a minus after a space is a sign (a table's columns)"
        );
    }

    #[test]
    fn the_quoted_sign_of_a_magnitude() {
        use super::quoted_sign as sign;
        assert_eq!(sign("0.553", "I1 = (−1, −0.553)"), Some('-'));
        assert_eq!(
            sign("-0.553", "I1 = (−1, −0.553)"),
            None,
            "a signed printed carries its own"
        );
        assert_eq!(sign("0.553", "(−0.553, 0.553)"), None, "both signs");
        assert_eq!(sign("0.553", "a = 0.553"), None);
        assert_eq!(sign("0.5", "a = 0.553"), None, "no occurrence");
    }
}
