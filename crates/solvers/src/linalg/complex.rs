//! Complex numbers, just the arithmetic the complex block of Radau IIA needs.

use super::Scalar;
use std::ops::{Div, Mul, Sub};

/// A complex number, just enough arithmetic for the complex block of Radau IIA.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct C64 {
    pub re: f64,
    pub im: f64,
}

impl C64 {
    pub const fn new(re: f64, im: f64) -> Self {
        Self { re, im }
    }
}

impl Scalar for C64 {
    const ZERO: Self = C64::new(0.0, 0.0);
    fn abs1(self) -> f64 {
        self.re.abs() + self.im.abs()
    }
}

impl Mul for C64 {
    type Output = C64;
    fn mul(self, o: C64) -> C64 {
        C64::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }
}

impl Sub for C64 {
    type Output = C64;
    fn sub(self, o: C64) -> C64 {
        C64::new(self.re - o.re, self.im - o.im)
    }
}

impl Div for C64 {
    type Output = C64;
    /// Smith's algorithm: no overflow for large components.
    fn div(self, d: C64) -> C64 {
        if d.re.abs() >= d.im.abs() {
            let r = d.im / d.re;
            let den = d.re + d.im * r;
            C64::new((self.re + self.im * r) / den, (self.im - self.re * r) / den)
        } else {
            let r = d.re / d.im;
            let den = d.re * r + d.im;
            C64::new((self.re * r + self.im) / den, (self.im * r - self.re) / den)
        }
    }
}
