//! An element set: the list parameters of a run with N elements (a Maxwell-slip model's
//! stiffnesses and deadbands, a Prandtl–Ishlinskii model's thresholds) generated from a count
//! and one rule per parameter, so that the count can be swept (`elements.n`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `elements: {n: 4, each: {k: "1/n", delta: "i/n"}}`: parameter `k` is the list
/// `[1/4, 1/4, 1/4, 1/4]` and `delta` the list `[0.25, 0.5, 0.75, 1]`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ElementSet {
    /// The number of elements N, a whole number ≥ 1 (swept as `elements.n`).
    pub n: f64,
    /// Parameter name → its value for element i = 1..N: an expression in `i` and `n` with
    /// numbers, `+ - * / ^`, parentheses, `pi` and `sqrt`, `exp`, `ln`, `abs`.
    pub each: BTreeMap<String, String>,
}

/// The largest element count (a list parameter longer than this is a mistake, not a model).
pub const MAX_ELEMENTS: f64 = 100_000.0;

impl ElementSet {
    /// Every generated list parameter, or what is wrong: (field under `elements`, message,
    /// allowed).
    pub fn generate(&self) -> Result<BTreeMap<String, Vec<f64>>, (String, String, String)> {
        let n = self.n;
        if !(1.0..=MAX_ELEMENTS).contains(&n) || n.fract() != 0.0 {
            return Err((
                "n".into(),
                format!("{n} elements"),
                format!("a whole number from 1 to {MAX_ELEMENTS}"),
            ));
        }
        let mut out = BTreeMap::new();
        for (name, rule) in &self.each {
            let values = (1..=n as usize)
                .map(|i| eval(rule, i as f64, n))
                .collect::<Result<Vec<f64>, String>>()
                .map_err(|e| {
                    (
                        format!("each.{name}"),
                        format!("`{rule}`: {e}"),
                        "an expression in i and n: numbers, + - * / ^, ( ), pi, sqrt, exp, ln, abs".into(),
                    )
                })?;
            if let Some(i) = values.iter().position(|v| !v.is_finite()) {
                return Err((
                    format!("each.{name}"),
                    format!("`{rule}` is {} for element i = {}", values[i], i + 1),
                    "a finite number for every element".into(),
                ));
            }
            out.insert(name.clone(), values);
        }
        Ok(out)
    }
}

/// The value of the expression `text` at element `i` of `n`.
pub fn eval(text: &str, i: f64, n: f64) -> Result<f64, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
        i,
        n,
        depth: 0,
    };
    let v = p.sum()?;
    p.skip();
    match p.peek() {
        None => Ok(v),
        Some(c) => Err(p.unexpected(c)),
    }
}

/// A recursive-descent evaluator: sum → product → unary → power → atom.
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    i: f64,
    n: f64,
    /// Nesting of parentheses, signs and powers so far (bounded: a deep rule is an error, not a
    /// stack overflow).
    depth: usize,
}

/// The deepest nesting a rule may have.
const MAX_DEPTH: usize = 64;

impl Parser<'_> {
    fn skip(&mut self) {
        while self.s.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }
    fn unexpected(&self, c: u8) -> String {
        format!("unexpected `{}` at character {}", c as char, self.at + 1)
    }
    fn eat(&mut self, c: u8) -> bool {
        self.skip();
        let hit = self.peek() == Some(c);
        self.at += usize::from(hit);
        hit
    }
    fn sum(&mut self) -> Result<f64, String> {
        let mut v = self.product()?;
        loop {
            if self.eat(b'+') {
                v += self.product()?;
            } else if self.eat(b'-') {
                v -= self.product()?;
            } else {
                return Ok(v);
            }
        }
    }
    fn product(&mut self) -> Result<f64, String> {
        let mut v = self.unary()?;
        loop {
            if self.eat(b'*') {
                v *= self.unary()?;
            } else if self.eat(b'/') {
                v /= self.unary()?;
            } else {
                return Ok(v);
            }
        }
    }
    fn unary(&mut self) -> Result<f64, String> {
        if self.depth >= MAX_DEPTH {
            return Err(format!(
                "nested deeper than {MAX_DEPTH} levels at character {}",
                self.at + 1
            ));
        }
        self.depth += 1;
        let v = self.unary_inner();
        self.depth -= 1;
        v
    }
    fn unary_inner(&mut self) -> Result<f64, String> {
        if self.eat(b'-') {
            return Ok(-self.unary()?);
        }
        let base = self.atom()?;
        if self.eat(b'^') {
            return Ok(base.powf(self.unary()?));
        }
        Ok(base)
    }
    fn atom(&mut self) -> Result<f64, String> {
        self.skip();
        let start = self.at;
        match self.peek() {
            None => Err("the expression ends too early".into()),
            Some(b'(') => {
                self.at += 1;
                let v = self.sum()?;
                if self.eat(b')') {
                    Ok(v)
                } else {
                    Err(format!("a `)` is missing at character {}", self.at + 1))
                }
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => {
                while self.peek().is_some_and(|c| c.is_ascii_digit() || c == b'.') {
                    self.at += 1;
                }
                if matches!(self.peek(), Some(b'e' | b'E')) {
                    self.at += 1;
                    if matches!(self.peek(), Some(b'+' | b'-')) {
                        self.at += 1;
                    }
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.at += 1;
                    }
                }
                let t = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
                t.parse().map_err(|_| format!("`{t}` is not a number"))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
                    self.at += 1;
                }
                let name = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
                self.name(name)
            }
            Some(c) => Err(self.unexpected(c)),
        }
    }
    fn name(&mut self, name: &str) -> Result<f64, String> {
        match name {
            "i" => return Ok(self.i),
            "n" => return Ok(self.n),
            "pi" => return Ok(std::f64::consts::PI),
            _ => {}
        }
        let f: fn(f64) -> f64 = match name {
            "sqrt" => f64::sqrt,
            "exp" => f64::exp,
            "ln" => f64::ln,
            "abs" => f64::abs,
            _ => return Err(format!("unknown name `{name}` (i, n, pi, sqrt, exp, ln, abs)")),
        };
        if !self.eat(b'(') {
            return Err(format!("`{name}` needs its argument in parentheses"));
        }
        let v = self.sum()?;
        if !self.eat(b')') {
            return Err(format!("a `)` is missing at character {}", self.at + 1));
        }
        Ok(f(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_evaluated_per_element() {
        assert_eq!(eval("i/n", 3.0, 4.0), Ok(0.75));
        assert_eq!(eval("1 - 2^-i * (n+1)", 1.0, 3.0), Ok(-1.0));
        assert_eq!(eval("-i^2", 3.0, 1.0), Ok(-9.0));
        assert_eq!(eval("sqrt(4*n) + 1e-1", 1.0, 4.0), Ok(4.1));
        assert!(eval("i/", 1.0, 1.0).unwrap_err().contains("ends too early"));
        assert!(eval("i n", 1.0, 1.0).unwrap_err().contains("character 3"));
        assert!(eval("k*i", 1.0, 1.0).unwrap_err().contains("unknown name `k`"));
        assert!(eval("(i", 1.0, 1.0).unwrap_err().contains("`)` is missing"));
        let deep = |k: usize| format!("{}i{}", "(".repeat(k), ")".repeat(k));
        assert_eq!(eval(&deep(30), 2.0, 1.0), Ok(2.0));
        assert!(eval(&deep(100_000), 1.0, 1.0).unwrap_err().contains("nested deeper"));
        assert!(eval(&"-".repeat(100_000), 1.0, 1.0)
            .unwrap_err()
            .contains("nested deeper"));
    }

    #[test]
    fn a_set_generates_its_lists_and_refuses_a_fractional_count() {
        let set = ElementSet {
            n: 4.0,
            each: [("k".into(), "1/n".into()), ("delta".into(), "i/n".into())].into(),
        };
        let g = set.generate().unwrap();
        assert_eq!(g["k"], vec![0.25; 4]);
        assert_eq!(g["delta"], vec![0.25, 0.5, 0.75, 1.0]);
        let bad = ElementSet { n: 2.5, ..set.clone() };
        assert_eq!(bad.generate().unwrap_err().0, "n");
        let inf = ElementSet {
            n: 2.0,
            each: [("k".into(), "1/(i-1)".into())].into(),
        };
        assert!(inf.generate().unwrap_err().1.contains("inf for element i = 1"));
    }
}
