//! An independent reference for the discontinuous rotating bristle model (DRBM) of thesis ch. III
//! (Drinčić 2012), written from the thesis' equations and sharing no code with the production
//! path (`fric_models::rbm`, `fric_experiments::drbm`, `fric_solvers`): its own geometry, its own
//! fixed-step RK4, its own location of every lattice event and velocity zero by bisection, and
//! exact stick (the Filippov solution: `v = 0` held while the applied force lies in
//! `[F_f^l(x), F_f^r(x)]`, (3.58)). The force-driven rig carries the input's work `∫ u v dt` as a
//! state, so the energy balance is checked independently of any sampled quadrature.
//!
//! Equations (seed `000_…`): `d0 = sqrt(l_b² − h²)` (L833); a bristle at base `x_b` touching a
//! corner `c` is at `θ = arctan((c − x_b)/h)` (3.2)/(3.3) and pushes with `κ θ cos²θ / h`
//! (3.5)/(3.6); for `v ≥ 0` the bristles with `x + d/2 − d0 < x_b ≤ x + d/2` touch the right
//! corner (3.13)/(3.14), for `v < 0` those with `x − d/2 ≤ x_b < x − d/2 + d0` the left one
//! (3.15)/(3.16); bases at `iΔ` (the lattice phase of the production's assumption). Rigs:
//! force-driven `m ẍ = u − K x − F_f` (3.42)–(3.43); spring-pulled `m ẍ = K l − F_f`,
//! `l̇ = v_p − ẋ` (3.10)–(3.12).
//!
//! The production integrates the Switch Model (a band `|v| ≤ η` with time constant τ), whose limit
//! as `η, τ → 0` this is; its runs must agree with this reference to the tolerances of the checks
//! the thesis' figures are held to.

mod drbm_ref;
mod fig3_9;

use drbm_ref::*;

/// Thesis Fig 3.9 (force-driven DRBM, ω = 0.001 and 0.05 rad/s, Δ = 0.01 and 0.005 m): the
/// production's last-period loop area and stored energy (3.45)–(3.46) against the reference's at
/// three production tolerances (rtol 1e-12 as in the manifest, 1e-11, 1e-10) and four reference
/// steps (RK4 at 4e-3 … 5e-4 s). At ω = 0.001 rad/s, where the checks are:
/// - E_stored counts the lattice cells crossed, N_e = 2 floor((x_max − x_min)/Δ): equal in both
///   (the checks' ±5e-6 J then holds with nothing to spare);
/// - the loop area is not determined to the checks' ±5e-6 J by either method: the reference's
///   own four steps scatter over a band in no order of the step (the stick positions are chaotic
///   beyond the first few sticks, see [`fig3_9_stick_phases_agree_with_the_reference`]), and the
///   production's three tolerances over another. Measured 2026-12-06: Δ = 0.01 m, reference
///   0.1981075 / 0.1981126 / 0.1981040 / 0.1980972 J (band 1.53e-5 J), production 0.1981015 /
///   0.1981102 / 0.1981006 J at rtol 1e-12 / 1e-11 / 1e-10; Δ = 0.005 m, reference 0.3782454 /
///   0.3782355 / 0.3782350 / 0.3782506 J (1.56e-5 J), production 0.3782391 / 0.3782284 /
///   0.3782326 J. So the production must lie within the reference's band widened by the check's
///   ±5e-6 J or, where the reference is itself spread wider, by that spread (it is then no more
///   determined by the equations at these resolutions): at rtol 1e-11 and Δ = 0.005 m it lies
///   1.7e-6 J below the band less 5e-6 J, within the band widened by its spread;
/// - each published-value check decides the same on the reference as on the production (both
///   outside 0.35647 / 0.35566 ± 5e-6 J on the same side; at Δ = 0.005 m also e_vs_stored_d5's
///   relative ±2.306e-3), so no known discrepancy of Fig 3.9 rests on our solver.
///
/// At ω = 0.05 rad/s (work_a, not checked) the map is a band of loops (the manifest's drbm_a64):
/// the two agree within 3 % of 0.35647 J (L1150): measured up to 9.8e-3 J (2.8 %), the reference's
/// own steps spreading over 8.5e-3 J (0.18975 … 0.19824 J) and E_stored by one or two cells.
/// The reference keeps its
/// own energy balance (input work over the last period = its loop area, to 1e-4 J) and the sign
/// rule of (3.13)/(3.15) on every sliding sample.
#[test]
fn fig3_9_production_agrees_with_the_filippov_reference() {
    let (e_area, e_stored, check_tol): (f64, f64, f64) = (0.35647, 0.35566, 5e-6);
    for &(delta, omega) in &[(0.01, 0.001), (0.005, 0.001), (0.01, 0.05)] {
        let row = Row {
            kappa: 0.1,
            h: 0.0995,
            lb: 0.1,
            delta,
            d: 1.0,
        };
        let period = 2.0 * std::f64::consts::PI / omega;
        let save: Vec<f64> = (0..=40000).map(|i| 2.0 * period * i as f64 / 40000.0).collect();
        let mut refs = vec![];
        for dt in [4e-3, 2e-3, 1e-3, 5e-4] {
            let r = Reference {
                row,
                rig: Rig::Driven {
                    m: 1.0,
                    k: 1.0,
                    a: 1.0,
                    w: omega,
                },
                dt,
                band: 1e-6,
            };
            let tr = r.run(0.0, 2.0 * period, &save);
            let u: Vec<f64> = tr.t.iter().map(|&t| (omega * t).sin()).collect();
            let (area, stored) = last_period_energies(&row, &tr.t, &tr.x, &u, period);
            // Energy balance: the input's work over the last period equals ∮ u dx along the
            // path, which differs from the samples' polygon only by the loop's closing chord.
            let from = tr.t.iter().position(|&s| s >= period * (1.0 - 1e-12)).unwrap();
            let work = tr.third[tr.third.len() - 1] - tr.third[from];
            for (i, ((&v, &f), &t)) in tr.v.iter().zip(&tr.f).zip(&tr.t).enumerate() {
                assert!(
                    v == 0.0 || f * v.signum() >= -1e-12,
                    "reference sign rule at t = {t} (sample {i}): v = {v}, F = {f}"
                );
            }
            eprintln!(
                "reference Δ = {delta}, ω = {omega}, dt = {dt}: area {area:.9} J, E_stored {stored:.9} J, input work {work:.9} J, sticks {}",
                tr.sticks
            );
            assert!(
                (work - area.abs()).abs() < 1e-4,
                "reference energy balance: input work {work} vs ∮ u dx {area}"
            );
            refs.push((area.abs(), stored));
        }
        let lo = refs.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
        let hi = refs.iter().map(|r| r.0).fold(f64::NEG_INFINITY, f64::max);
        // A published-value check's verdict: outside `expected ± check_tol`, and on which side.
        let verdict = |v: f64, expected: f64, tol: f64| ((v - expected).abs() > tol, v > expected);
        for rtol in [1e-12, 1e-11, 1e-10] {
            let d = production_driven(delta, omega, rtol);
            let (t, x, u) = (d.column("t").unwrap(), d.column("x").unwrap(), d.column("u").unwrap());
            let (area, stored) = last_period_energies(&row, t, x, u, period);
            let area = area.abs();
            eprintln!(
                "production Δ = {delta}, ω = {omega}, rtol {rtol:e}: area {area:.9} J, E_stored {stored:.9} J; the reference's band [{lo:.9}, {hi:.9}] J"
            );
            if omega > 0.01 {
                for &(ra, rs) in &refs {
                    assert!(
                        (area - ra).abs() <= 0.03 * e_area,
                        "Δ = {delta}, ω = {omega}, rtol {rtol}: area {area} vs reference {ra}"
                    );
                    assert!(
                        (stored - rs).abs() <= 0.03 * e_area,
                        "Δ = {delta}, ω = {omega}, rtol {rtol}: E_stored {stored} vs reference {rs}"
                    );
                }
                continue;
            }
            let within = check_tol.max(hi - lo);
            assert!(
                area >= lo - within && area <= hi + within,
                "Δ = {delta}, rtol {rtol}: area {area} J more than {within:e} J (the check's ±{check_tol} J or the reference's own spread) outside the reference's band [{lo}, {hi}] J"
            );
            for &(ra, rs) in &refs {
                assert_eq!(
                    stored, rs,
                    "Δ = {delta}, rtol {rtol}: E_stored (N_e) differs from the reference's"
                );
                assert_eq!(
                    verdict(area, e_area, check_tol),
                    verdict(ra, e_area, check_tol),
                    "Δ = {delta}, rtol {rtol}: the area check decides otherwise on the reference ({area} vs {ra})"
                );
                assert_eq!(verdict(stored, e_stored, check_tol), verdict(rs, e_stored, check_tol));
                if delta == 0.005 {
                    // e_vs_stored_d5: (area − E_stored)/E_stored against 0 ± 2.306e-3.
                    let rel = |a: f64, s: f64| (a - s) / s;
                    assert_eq!(
                        verdict(rel(area, stored), 0.0, 2.306e-3),
                        verdict(rel(ra, rs), 0.0, 2.306e-3),
                        "rtol {rtol}: e_vs_stored_d5 decides otherwise on the reference ({} vs {})",
                        rel(area, stored),
                        rel(ra, rs)
                    );
                }
            }
        }
    }
}

// Thesis Figs 3.7, 3.13 and 3.14 (the spring-pulled rig): `drbm_reference_pulled.rs`.

/// The maximal runs `[first, last]` of samples where `stuck(i)`.
fn runs(n: usize, stuck: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = vec![];
    for i in (0..n).filter(|&i| stuck(i)) {
        match out.last_mut() {
            Some(r) if r.1 + 1 == i => r.1 = i,
            _ => out.push((i, i)),
        }
    }
    out
}

/// Thesis Fig 3.9 (b)'s stick phases (ω = 0.001 rad/s, 2 periods, Δ = 0.01 and 0.005 m):
/// the production's count (`stick_phases`, 2251 at Δ = 0.01 m since the graze fix of
/// 2026-12-05) against the reference, which shares no code with it (its own RK4, bisection,
/// exact stick; no `triggers`, no `Law::settle`). The Switch Model enters its stick case on
/// every visit of the band `|v| ≤ η` where the applied force lies in the friction interval: at
/// an exact velocity zero (the reference's stick) and at a minimum of `|v|` below η without a
/// reversal (the creeping body's oscillation grazing zero; the reference slides on through it).
/// So the production's count is the reference's sticks plus its grazes below η, up to the
/// borderline grazes (minimum within ±10 % of η, which the band's own dynamics may tip either
/// way). Also the sign rule of (3.13)/(3.15) on every sliding sample of the production beyond
/// the band (|v| > η; inside it a slip branch may carry |v| ≤ 4e-8 m/s of either sign).
///
/// The reference's sticks longer than two sample spacings, against the production's, show
/// why the two part (2026-12-06, [`long_sticks`]):
/// - the production stops `η τ` further than the exact stick: the band is entered at `|v| = η`
///   and the stick field relaxes `v` as `η e^{−t/τ}`, moving the body `η τ = 1e-9 m` (less the
///   exact deceleration's `η²/2|a|` through the band). Derived bound on the first long stick:
///   `|Δx/(η τ) − 1| ≤ 5 %`; measured 0.986 (Δ = 0.01 m), 0.993 (Δ = 0.005 m). The reference is
///   converged there (its steps 2e-3, 1e-3, 5e-4 s agree to 6e-13 m);
/// - each stick's position feeds the next: the offset |Δx| of the first long sticks is 9.9e-10,
///   4.6e-9, 6.3e-8, 8.1e-7, 8.1e-6, 1.28e-4 m (Δ = 0.01 m: ×4.7, 13.6, 12.9, 10.0, 15.8 per
///   stick, the order of the bristle's stiffness over the spring's, κ/(h² K) = 10) and 9.9e-10,
///   1.7e-8, 7.7e-8, 1.2e-6, 1.2e-7, 2.5e-5, 4.2e-4 m (Δ = 0.005 m: ×16.8, 4.6, 16.3, 0.1, 216,
///   16.7; a stick may land closer than the one before), as the reference's own step-halving
///   differences grow (−6e-13 → −7e-8 m over the first six sticks). The growth is not bounded,
///   so how many sticks stay within Δ/100 is measured, not derived: 5 at Δ = 0.01 m (the 6th at
///   1.28e-4 m > 1e-4 m), 6 at Δ = 0.005 m (the 7th at 4.2e-4 m > 5e-5 m); the production
///   holds every such stick on every sample (the test prints the offsets);
/// - beyond, the positions are not determined by the equations: the reference at 2e-3 and
///   5e-4 s itself differs by up to 1.35e-3 m (Δ/7.4), the production from it by up to
///   1.23e-3 m. The only bound left is the lattice cell: |Δx| ≤ Δ/2 (that sticks land in the
///   same cell, the condition under which a stick at all is possible for the same `a`);
/// - the production never re-slides inside one of its own sticks. Inside each reference stick
///   its first stuck sample is the first or second (a stop up to one sample later), and each of
///   its sticks that ends first ends at its own friction interval's bound: at its last stuck
///   sample `a = u − K x` is within `A ω` times the sample spacing (how far `a` moves per sample
///   while `x` is held) of `F_f^l(x)` or `F_f^r(x)`. The "re-slides" of the 2026-12-05 note
///   (v ≈ −7e-4 m/s) are the creep after such an earlier end (with brief creep sticks), at a
///   position `Δx` away where the interval's bound is reached sooner. Not a defect: the Switch
///   Model's `η τ` per stick, amplified by the motion. Held on every sample: 25 of 71 (Δ = 0.01 m),
///   28 of 71 (Δ = 0.005 m).
#[test]
fn fig3_9_stick_phases_agree_with_the_reference() {
    let omega = 0.001;
    let period = 2.0 * std::f64::consts::PI / omega;
    let save: Vec<f64> = (0..=40000).map(|i| 2.0 * period * i as f64 / 40000.0).collect();
    let spacing = save[1];
    for delta in [0.01, 0.005] {
        let row = Row {
            kappa: 0.1,
            h: 0.0995,
            lb: 0.1,
            delta,
            d: 1.0,
        };
        let r = Reference {
            row,
            rig: Rig::Driven {
                m: 1.0,
                k: 1.0,
                a: 1.0,
                w: omega,
            },
            dt: 2e-3,
            band: 1e-6,
        };
        let tr = r.run(0.0, 2.0 * period, &save);
        let d = production_driven(delta, omega, 1e-12);
        let [t, v, f, stuck] = ["t", "v", "F", "stuck"].map(|c| d.column(c).unwrap());
        assert_eq!(t.len(), tr.t.len(), "same sample grid");
        let wrong: Vec<usize> = (0..t.len())
            .filter(|&i| stuck[i] == 0.0 && v[i].abs() > 1e-6 && f[i] * v[i].signum() < -1e-12)
            .collect();
        let wrong_sign = wrong.len();
        let sticks = d.info["stick_phases"];
        let (grazes, borderline) = tr.grazes;
        let expected = (tr.sticks + grazes) as f64;
        let long = long_sticks(&tr, &d, 2.0 * spacing);
        let held = long.iter().filter(|s| s.held).count();
        let dx_max = long.iter().fold(0.0f64, |m, s| m.max(s.dx));
        let prod_runs = runs(t.len(), |i| stuck[i] == 1.0).len();
        let ref_runs = runs(t.len(), |i| tr.v[i] == 0.0).len();
        eprintln!(
            "Δ = {delta}: production {sticks} stick phases ({prod_runs} sampled); reference {} exact sticks + {grazes} grazes below η = {expected} ({borderline} borderline; {ref_runs} sampled); \
             {} reference sticks > 2 samples, {held} held by the production, max |Δx| {dx_max:.3e} m; production sliding samples against the sign rule: {wrong_sign}",
            tr.sticks,
            long.len()
        );
        assert_eq!(
            wrong_sign, 0,
            "Δ = {delta}: sliding samples with F opposing the sign rule"
        );
        assert!(
            (sticks - expected).abs() <= borderline as f64,
            "Δ = {delta}: production {sticks} stick phases vs reference {expected} (± {borderline} borderline)"
        );
        assert!(
            dx_max <= delta / 2.0,
            "Δ = {delta}: stick positions differ by {dx_max} m, beyond the lattice cell"
        );
        let eta_tau = PRODUCTION_ETA * PRODUCTION_TAU;
        let offsets: Vec<String> = long.iter().take(8).map(|s| format!("{:.3e}", s.dx)).collect();
        let growth: Vec<String> = long
            .windows(2)
            .take(7)
            .map(|w| format!("{:.1}", w[1].dx / w[0].dx))
            .collect();
        eprintln!("Δ = {delta}: |Δx| of the first long sticks {offsets:?} m, growth per stick {growth:?}");
        let first = long[0].dx_signed / eta_tau;
        let gap = long.iter().fold(0.0f64, |m, s| m.max(s.end_gap));
        eprintln!("Δ = {delta}: first long stick Δx / (η τ) = {first:.4}; production sticks ending inside a reference stick end {gap:.3e} N from their bound at most");
        assert!(
            (first - 1.0).abs() <= 0.05,
            "Δ = {delta}: the first long stick is {first} η τ from the reference's, not the band's η τ"
        );
        let determined: Vec<&LongStick> = long.iter().take_while(|s| s.dx <= delta / 100.0).collect();
        // Measured (2026-12-06), not derived: the offsets' growth per stick is not bounded
        // (at Δ = 0.005 m the 5th long stick lands closer, ×0.1, and the 6th ×216 further).
        let within = if delta == 0.01 { 5 } else { 6 };
        assert!(
            determined.len() == within && determined.iter().all(|s| s.held),
            "Δ = {delta}: of the {} sticks within Δ/100 of the reference's, {} are held on every sample ({within} measured, all held): re-measure and re-read the mechanism above",
            determined.len(),
            determined.iter().filter(|s| s.held).count()
        );
        // A = 1 N: `a = u − K x` moves by at most A ω per second while x is held.
        let band = 1.0 * omega * spacing;
        for s in &long {
            assert!(
                s.start <= 1 && s.end_gap <= band * (1.0 + 1e-9),
                "Δ = {delta}, reference stick at t = {}: the production re-slides inside a stick (first stuck at inside sample {}, a stick of its ends {:e} N from its interval's bound, allowed A ω spacing = {band:e} N)",
                s.t,
                s.start,
                s.end_gap
            );
        }
        assert_eq!(
            (long.len(), held),
            if delta == 0.01 { (71, 25) } else { (71, 28) },
            "Δ = {delta}: (long reference sticks, held by the production on every sample) moved: re-measure and re-read the mechanism above"
        );
    }
}

/// A reference stick longer than `min_len`, seen by the production ([`long_sticks`]).
struct LongStick {
    /// Its start.
    t: f64,
    /// The production's `x` minus the reference's at the stick's middle sample, and `|Δx|` over
    /// its samples.
    dx_signed: f64,
    dx: f64,
    /// Every sample inside stuck in the production.
    held: bool,
    /// The first inside sample stuck in the production (the number of inside samples if none is:
    /// a stick the production misses fails the start test).
    start: usize,
    /// The largest distance of `a = u − K x` from the production's own interval
    /// `[u_l, u_r] − K x` at the last stuck sample of a production stick that ends inside
    /// (0 if none does).
    end_gap: f64,
}

/// The reference's sticks longer than `min_len` against the production run `d`, in time order.
fn long_sticks(tr: &Trace, d: &fric_experiments::RunData, min_len: f64) -> Vec<LongStick> {
    let [t, x, stuck, u, ur, ul] = ["t", "x", "stuck", "u", "u_r", "u_l"].map(|c| d.column(c).unwrap());
    tr.spans
        .iter()
        .filter(|sp| sp.1 - sp.0 > min_len)
        .map(|&(a, b, xs)| {
            let inside: Vec<usize> = (0..t.len()).filter(|&i| t[i] > a && t[i] < b).collect();
            let mid = inside[inside.len() / 2];
            let stuck_runs = runs(inside.len(), |k| stuck[inside[k]] == 1.0);
            let start = stuck_runs.first().map_or(inside.len(), |r| r.0);
            let end_gap = stuck_runs
                .iter()
                .filter(|r| r.1 + 1 < inside.len())
                .map(|r| {
                    (u[inside[r.1]] - ul[inside[r.1]])
                        .abs()
                        .min((ur[inside[r.1]] - u[inside[r.1]]).abs())
                })
                .fold(0.0f64, f64::max);
            LongStick {
                t: a,
                dx_signed: x[mid] - xs,
                dx: inside.iter().fold(0.0f64, |m, &i| m.max((x[i] - xs).abs())),
                held: inside.iter().all(|&i| stuck[i] == 1.0),
                start,
                end_gap,
            }
        })
        .collect()
}
