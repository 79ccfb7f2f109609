#!/usr/bin/env python3
"""SciPy side of the benchmark (`cargo xtask bench`; see README.md, "Benchmark").

Reads bench/out/reference.json (problem parameters, comparison times and reference values,
written by `cargo run --release --manifest-path bench/Cargo.toml -- run`), runs the same problems
with scipy.integrate.solve_ivp (Radau, LSODA, DOP853, BDF) over the same tolerance ladder, and
writes bench/out/scipy.json in the record format of bench/out/rust.json. It also integrates each
problem once with DOP853 and Radau at rtol 1e-12 and reports how far that is from the reference.

Python is used only here: never in the tests or in CI.
"""

import json
import math
import platform
import sys
import time
from pathlib import Path

try:
    import numpy as np
    import scipy
    from scipy.integrate import solve_ivp
except ImportError as e:  # pragma: no cover
    sys.exit(f"scipy_bench.py needs numpy and scipy ({e}): pip install -r bench/requirements.txt")

OUT = Path(__file__).resolve().parent / "out"
METHODS = ["Radau", "LSODA", "DOP853", "BDF"]
# Same ladder and stopping rule as bench/src/main.rs.
LADDER = [10.0 ** (-3.0 - 0.5 * k) for k in range(17)]
EXTRA_AFTER_TARGET = 2
# A single run longer than this stops the method's ladder; a run is aborted after it.
RUN_BUDGET = 20.0


class Timeout(Exception):
    pass


def budgeted(fun, deadline):
    """Wrap a right-hand side so that the run aborts once the wall clock passes `deadline`."""
    count = [0]

    def f(t, y):
        count[0] += 1
        if count[0] % 500 == 0 and time.perf_counter() > deadline:
            raise Timeout()
        return fun(t, y)

    return f


def max_err_at(times, ref, out_t, out_y):
    """Largest |y − ref| at the comparison times (outputs matched within 1e-9); inf if missing."""
    out_t = np.asarray(out_t)
    out_y = np.asarray(out_y)
    order = np.argsort(out_t)
    ot, oy = out_t[order], out_y[order]
    e = 0.0
    for tc, r in zip(times, ref):
        i = np.searchsorted(ot, tc - 1e-9)
        if i >= len(ot) or abs(ot[i] - tc) > 1e-9:
            return math.inf
        e = max(e, abs(oy[i] - r))
    return e


# -------------------------------------------------------------------------------------------
# (a) LuGre, thesis Fig 1.11(a)


def hybrid_error(ref):
    """Error of a hybrid run (bench/src/problems.rs `hybrid_err`): the largest deviation of the
    switch times and of the final state; inf when the sequence of modes differs."""
    def error(o):
        sw = o["switches"]
        if len(sw) != len(ref["switch_times"]):
            return math.inf
        e = 0.0
        for (t, md), rt, rm in zip(sw, ref["switch_times"], ref["switch_modes"]):
            if md != rm:
                return math.inf
            e = max(e, abs(t - rt))
        for xv, rv in zip(o["x_end"], ref["x_end"]):
            e = max(e, abs(xv - rv))
        return e
    return error


def plain(d, rhs, jac, t1, x0, out):
    """A smooth problem in one solve_ivp call from t = 0 to t1, output out(y) (y: states × times)
    at the comparison times; `jac` (or None: SciPy's finite differences) for the implicit methods."""
    times = d["t_cmp"]

    def run(method, rtol, atol, deadline):
        kw = {"jac": jac} if jac is not None and method != "DOP853" else {}
        r = solve_ivp(budgeted(rhs, deadline), (0.0, t1), x0, method=method, rtol=rtol, atol=atol,
                      t_eval=times, **kw)
        if not r.success:
            raise RuntimeError(r.message)
        return {"t": list(r.t), "y": list(out(r.y)), "nfev": r.nfev}

    def error(o):
        return max_err_at(times, d["ref"], o["t"], o["y"])

    return run, error


def lugre_problem(d):
    p = d["params"]
    s0, s1, s2 = p["sigma0"], p["sigma1"], p["sigma2"]
    fc, fs, vs, a, w = p["fc"], p["fs"], p["vs"], p["amplitude"], p["omega"]
    sin, exp = math.sin, math.exp

    def du(t):
        return -a * w * sin(w * t)

    def g(v):
        return fc + (fs - fc) * exp(-((v / vs) ** 2))

    def zdot(t, z):
        v = du(t)
        return v - abs(v) * s0 * z / g(v)

    def rhs(t, y):
        return [zdot(t, y[0])]

    def jac(t, y):
        v = du(t)
        return [[-abs(v) * s0 / g(v)]]

    def force(t, z):
        return s0 * z + s1 * zdot(t, z) + s2 * du(t)

    times = d["t_cmp"]
    segments = d["segments"]
    hmax = d["hmax"]

    def run(method, rtol, atol, deadline):
        f = budgeted(rhs, deadline)
        ts, fs_out = [0.0], [force(0.0, 0.0)]
        z = 0.0
        nfev = 0
        i = 1
        for a_, b_ in segments:
            j = i
            while j < len(times) and times[j] <= b_:
                j += 1
            kw = {"jac": jac} if method != "DOP853" else {}
            r = solve_ivp(f, (a_, b_), [z], method=method, rtol=rtol, atol=atol, t_eval=times[i:j],
                          max_step=hmax, **kw)
            if not r.success:
                raise RuntimeError(r.message)
            for t, zz in zip(r.t, r.y[0]):
                ts.append(t)
                fs_out.append(force(t, zz))
            if r.t[-1] != b_:  # the last comparison time of a segment is its end
                raise RuntimeError("segment end missing from the output")
            z = float(r.y[0][-1])
            nfev += r.nfev
            i = j
        return {"t": ts, "y": fs_out, "nfev": nfev}

    def error(o):
        return max_err_at(times, d["ref"], o["t"], o["y"])

    return run, error


# -------------------------------------------------------------------------------------------
# (b) Van der Pol μ = 1000


def vdp_problem(d):
    mu = d["params"]["mu"]
    t1 = d["params"]["t1"]
    x0 = d["params"]["x0"]

    def rhs(t, x):
        return [x[1], mu * (1.0 - x[0] * x[0]) * x[1] - x[0]]

    def jac(t, x):
        return [[0.0, 1.0], [-2.0 * mu * x[0] * x[1] - 1.0, mu * (1.0 - x[0] * x[0])]]

    return plain(d, rhs, jac, t1, x0, lambda y: y[0])


# -------------------------------------------------------------------------------------------
# (c) Coulomb mass–spring hybrid automaton (fric_models::coulomb::MassSpring)

STICK = 0.0


def coulomb_problem(d):
    p = d["params"]
    m, k, fc, a, w, t1, hmax = p["m"], p["k"], p["fc"], p["amplitude"], p["omega"], p["t1"], p["hmax"]
    sin, cos = math.sin, math.cos

    def u(t):
        return a * sin(w * t)

    def du(t):
        return a * w * cos(w * t)

    def sgn(x):
        return (x > 0) - (x < 0)

    def applied(t, x):
        return u(t) - k * x[0]

    def rhs_for(mode):
        if mode == STICK:
            return lambda t, x: [0.0, 0.0]
        return lambda t, x: [x[1], (applied(t, x) - mode * fc) / m]

    def guard_for(mode):
        # One rising guard per mode, as in bench/src/problems.rs (`coulomb_guard`).
        if mode == STICK:
            def gd(t, x):
                return abs(applied(t, x)) - fc
        else:
            def gd(t, x):
                return -mode * x[1]
        gd.terminal = True
        gd.direction = 1
        return gd

    def jump(mode, t, x):
        """fric_models::coulomb::MassSpring::jump, the stick guard identified by the force sign."""
        if mode == STICK:
            return 1.0 if applied(t, x) >= 0 else -1.0
        x[1] = 0.0
        f = applied(t, x)
        if abs(f) < fc:
            return STICK
        if sgn(f) == mode or (abs(f) == fc and sgn(du(t)) == mode):
            return mode
        return -mode

    def run(method, rtol, atol, deadline):
        mode, x, t = STICK, list(p["x0"]), 0.0  # u(0) = 0: |u − K x| ≤ F_C, at rest
        switches, nfev = [], 0
        while t < t1:
            kw = {"jac": (lambda t_, x_: [[0.0, 0.0], [0.0, 0.0]]) if mode == STICK
                  else (lambda t_, x_: [[0.0, 1.0], [-k / m, 0.0]])} if method != "DOP853" else {}
            r = solve_ivp(budgeted(rhs_for(mode), deadline), (t, t1), x, method=method, rtol=rtol,
                          atol=atol, events=guard_for(mode), max_step=hmax, **kw)
            if r.status < 0:
                raise RuntimeError(r.message)
            nfev += r.nfev
            if r.status == 1:  # terminal event
                te = float(r.t_events[0][0])
                x = [float(v) for v in r.y_events[0][0]]
                mode = jump(mode, te, x)
                switches.append((te, float(mode)))
                t = te
                if len(switches) > 10000:
                    raise RuntimeError("too many switches")
            else:
                x = [float(v) for v in r.y[:, -1]]
                t = t1
        return {"switches": switches, "x_end": x, "nfev": nfev}

    return run, hybrid_error(d["ref"])


# -------------------------------------------------------------------------------------------
# (d) 500-bristle compressed bristle model (fric_models::cbm + fric_solvers::switch, as run by
# fric_experiments::cbm): the same Switch Model regions and frozen bristle windows, every case
# change and every bristle entering or leaving the slant a terminal event with a restart.

ABOVE, BELOW, STICK_R, BAND_PLUS, BAND_MINUS = 1.0, -1.0, 0.0, 2.0, -2.0


def bristle500_problem(d):
    """Stick–slip configuration (belt at v_p, state [x, v, l, y, ẏ], applied force K l)."""
    p = d["params"]
    K, vp, m = p["K"], p["vp"], p["m"]

    def motion(t, x, v, l, y, yd, F, Fy):
        return [v, (K * l - F) / m, vp - v, yd, Fy]
    return cbm_problem(d, motion, 3)


def cbm_fd_problem(d):
    """Force-driven configuration of thesis Fig 4.3 (state [x, v, y, ẏ], applied u − K x)."""
    p = d["params"]
    K, A, om, m = p["K"], p["amplitude"], p["omega"], p["m"]

    def motion(t, x, v, y, yd, F, Fy):
        return [v, (A * math.sin(om * t) - K * x - F) / m, yd, Fy]
    return cbm_problem(d, motion, 2)


def cbm_problem(d, motion, iy):
    """The CBM automaton shared by both configurations: `motion(t, *state, F, ÿ)` is the field
    given the bristle friction F = F_f± and the vertical acceleration; `iy` the index of y."""
    p = d["params"]
    w, dd, al, N, k = p["w"], p["d"], p["alpha"], p["N"], p["k"]
    h0, dl, g, eta, tau, t1, m = p["h0"], p["delta"], p["g"], p["eta"], p["tau"], p["t1"], p["m"]
    d1 = w * math.tan(al)
    ca, sa = math.cos(al), math.sin(al)
    off = {1: 0.5 * dd, -1: d1 - 0.5 * dd}  # upper window end x + off (4.7)-(4.8)

    def upper(sg, i):
        return i * dl - off[sg]

    def lower(sg, i):
        return i * dl - off[sg] + d1

    def window(sg, x):
        last = math.floor((x + off[sg]) / dl)
        while upper(sg, last + 1) <= x:
            last += 1
        while upper(sg, last) > x:
            last -= 1
        first = math.ceil((x + off[sg] - d1) / dl)
        while lower(sg, first - 1) >= x:
            first -= 1
        while lower(sg, first) < x:
            first += 1
        return (first, last)

    def bounds(sg, win):
        f, l = win
        return max(upper(sg, l), lower(sg, f - 1)), min(upper(sg, l + 1), lower(sg, f))

    def cross(sg, win, fwd):
        f, l = win
        if fwd:
            enter, leave = upper(sg, l + 1), lower(sg, f)
            return (f + 1 if leave <= enter else f, l + 1 if enter <= leave else l)
        leave, enter = upper(sg, l), lower(sg, f - 1)
        return (f - 1 if enter >= leave else f, l - 1 if leave >= enter else l)

    def settle(sg, win, x):
        while True:
            lo, hi = bounds(sg, win)
            if x - hi > 0:
                win = cross(sg, win, True)
            elif lo - x > 0:
                win = cross(sg, win, False)
            else:
                return win

    def slant_sum(sg, win, x, y):
        f, l = win
        n = l - f + 1
        if n <= 0:
            return 0.0
        mid = 0.5 * dl * (f + l)
        sbar = x + 0.5 * dd - mid if sg == 1 else mid - (x - 0.5 * dd)
        return n * (h0 - y - 0.5 * w + w / d1 * sbar)

    def field(sg, wins, t, s):
        x, y = s[0], s[iy]
        S = slant_sum(sg, wins[sg], x, y)
        return motion(t, *s, sg * k * ca * S, -g + (k * sa * S + N * k * (h0 - y + 0.5 * w)) / m)

    def normals(wins, t, s):
        return field(-1, wins, t, s)[1], field(1, wins, t, s)[1]  # (a-, a+) = v' under f-, f+

    def band_region(am, ap):
        return BAND_PLUS if ap > 0 else (BAND_MINUS if am < 0 else STICK_R)

    def rhs_for(region, wins):
        if region in (ABOVE, BAND_PLUS):
            return lambda t, s: field(1, wins, t, s)
        if region in (BELOW, BAND_MINUS):
            return lambda t, s: field(-1, wins, t, s)

        def blended(t, s):
            fm, fp = field(-1, wins, t, s), field(1, wins, t, s)
            am, ap = fm[1], fp[1]
            den = am - ap
            a = min(1.0, max(0.0, (am + s[1] / tau) / den)) if den > 0 else 0.5
            return [a * q + (1 - a) * r for q, r in zip(fp, fm)]
        return blended

    def guards_for(region, wins):
        gs = []
        if region == ABOVE:
            gs.append(lambda t, s: eta - s[1])
        elif region == BELOW:
            gs.append(lambda t, s: s[1] + eta)
        else:
            gs.append(lambda t, s: s[1] - eta)
            gs.append(lambda t, s: -eta - s[1])
            if region == STICK_R:
                gs.append(lambda t, s: max(normals(wins, t, s)[1], -normals(wins, t, s)[0]))
            elif region == BAND_PLUS:
                gs.append(lambda t, s: -normals(wins, t, s)[1])
            else:
                gs.append(lambda t, s: normals(wins, t, s)[0])
        for sg in (1, -1):
            gs.append(lambda t, s, sg=sg: s[0] - bounds(sg, wins[sg])[1])
            gs.append(lambda t, s, sg=sg: bounds(sg, wins[sg])[0] - s[0])
        return gs

    def jump(region, wins, j, t, s):
        """SwitchModel::jump and CbmSwitched::jump of the Rust side. SciPy's event state may lie
        a rounding error short of the crossed threshold (ours returns the state on the far side),
        so x is snapped onto it before settling."""
        kr = 1 if region in (ABOVE, BELOW) else 3
        if j >= kr:
            jj = j - kr
            sg = 1 if jj < 2 else -1
            wins = dict(wins)
            wins[sg] = cross(sg, wins[sg], jj % 2 == 0)
            lo, hi = bounds(sg, wins[sg])
            slack = 1e-12 * (1 + abs(s[0]))
            if s[0] < lo and lo - s[0] <= slack:
                s[0] = lo
            elif s[0] > hi and s[0] - hi <= slack:
                s[0] = hi
            wins = {sg2: settle(sg2, wins[sg2], s[0]) for sg2 in (1, -1)}
            if region not in (ABOVE, BELOW):
                v = s[1]
                region = ABOVE if v > eta else BELOW if v < -eta else band_region(*normals(wins, t, s))
            return region, wins
        if region in (ABOVE, BELOW):
            return band_region(*normals(wins, t, s)), wins
        if j == 0:
            return ABOVE, wins
        if j == 1:
            return BELOW, wins
        am, ap = normals(wins, t, s)
        if region == STICK_R:
            return (BAND_PLUS if ap >= -am else BAND_MINUS), wins
        if region == BAND_PLUS:
            return (STICK_R if am >= 0 else BAND_MINUS), wins
        return STICK_R, wins

    def run(method, rtol, atol, deadline):
        s = list(p["x0"])
        t = 0.0
        wins = {1: window(1, s[0]), -1: window(-1, s[0])}
        v = s[1]
        region = ABOVE if v > eta else BELOW if v < -eta else band_region(*normals(wins, t, s))
        switches, nfev, events = [], 0, 0
        while t < t1:
            gs = guards_for(region, wins)
            # The Rust driver fires a guard only when it rises from < 0: a guard that starts at
            # >= 0 (just crossed) is disarmed for this segment.
            evs = []
            for gfun in gs:
                armed = gfun(t, s) < 0

                def ev(t_, y_, gfun=gfun, armed=armed):
                    return gfun(t_, y_) if armed else -1.0
                ev.terminal = True
                ev.direction = 1
                evs.append(ev)
            r = solve_ivp(budgeted(rhs_for(region, wins), deadline), (t, t1), s, method=method,
                          rtol=rtol, atol=atol, events=evs)
            if r.status < 0:
                raise RuntimeError(r.message)
            nfev += r.nfev
            if r.status == 1:
                hits = [(float(te[0]), j) for j, te in enumerate(r.t_events) if len(te)]
                te, j = min(hits)
                s = [float(q) for q in r.y_events[j][0]]
                new_region, wins = jump(region, wins, j, te, s)
                if new_region != region:
                    switches.append((te, new_region))
                region = new_region
                t = te
                events += 1
                if events > 100000:
                    raise RuntimeError("too many events")
            else:
                s = [float(q) for q in r.y[:, -1]]
                t = t1
        return {"switches": switches, "x_end": s, "nfev": nfev}

    return run, hybrid_error(d["ref"])


# -------------------------------------------------------------------------------------------
# (e) Bliman & Sorine inertia in time (2.12), report Fig 2.3 (fric_models::bliman_sorine::Inertia)


def bs_problem(d):
    p = d["params"]
    J, al, f1, f2, eps, eta = p["J"], p["alpha"], p["f1"], p["f2"], p["eps"], p["eta"]
    a, w, t1, x0 = p["amplitude"], p["omega"], p["t1"], p["x0"]
    sin = math.sin
    ee = eps * eta

    def rhs(t, x):
        v = x[1]
        av = abs(v)
        return [v, (a * sin(w * t) - al * v - x[2] - x[3]) / J,
                (-av * x[2] + f1 * v) / ee, (-av * x[3] - f2 * v) / eps]

    def jac(t, x):
        v = x[1]
        s = 1.0 if v > 0 else (-1.0 if v < 0 else 0.0)
        return [[0.0, 1.0, 0.0, 0.0],
                [0.0, -al / J, -1.0 / J, -1.0 / J],
                [0.0, (-s * x[2] + f1) / ee, -abs(v) / ee, 0.0],
                [0.0, (-s * x[3] - f2) / eps, 0.0, -abs(v) / eps]]

    return plain(d, rhs, jac, t1, x0, lambda y: y[2] + y[3])


# -------------------------------------------------------------------------------------------
# (f) PID limit cycle with asymmetric LuGre, report Fig 5.9 (fric_models::pid::PidLoop)


def pid_problem(d):
    p = d["params"]
    J, al, r_ = p["J"], p["alpha"], p["r"]
    kp, ki, kd = J * p["kp_n"], J * p["ki_n"], J * p["kd_n"]
    s0, s1, v0 = p["sigma0"], p["sigma1"], p["v0"]
    minus = (p["alpha0_minus"], p["alpha1_minus"])
    plus = (p["alpha0_plus"], p["alpha1_plus"])
    t1, x0 = p["t1"], p["x0"]
    exp = math.exp

    def rhs(t, x):
        th, v, integral, z = x
        a0, a1 = minus if v < 0 else plus
        g = a0 + a1 * exp(-((v / v0) ** 2))
        zd = v - s0 * abs(v) * z / g
        u = kp * (r_ - th) + ki * integral - kd * v
        return [v, (u - al * v - (s0 * z + s1 * zd)) / J, r_ - th, zd]

    # No jac: the implicit methods use their own finite differences, as every side does here.
    return plain(d, rhs, None, t1, x0, lambda y: y[0])


# -------------------------------------------------------------------------------------------
# (g) One describing-function point of report Fig 5.22 (B&S, third approach)


def df_problem(d):
    """The time form (2.12) of the inertia with B&S under u = a sin ωt, with the Fourier
    integrals of θ appended, from rest period after period until N = (b1 + i a1)/a moves by less
    than max(settle, rtol) |N| (what a script without shooting does; a looser tolerance cannot
    settle N closer than its own noise)."""
    p = d["params"]
    J, al, f1, f2, eps, eta = p["J"], p["alpha"], p["f1"], p["f2"], p["eps"], p["eta"]
    a, w, settle, max_periods = p["amplitude"], p["omega"], p["settle"], p["max_periods"]
    sin, cos = math.sin, math.cos
    ee = eps * eta
    period = 2.0 * math.pi / w

    def rhs(t, x):
        v = x[1]
        av = abs(v)
        s, c = sin(w * t), cos(w * t)
        return [v, (a * s - al * v - x[2] - x[3]) / J, (-av * x[2] + f1 * v) / ee,
                (-av * x[3] - f2 * v) / eps, x[0] * s, x[0] * c]

    def jac(t, x):
        v = x[1]
        sg = 1.0 if v > 0 else (-1.0 if v < 0 else 0.0)
        s, c = sin(w * t), cos(w * t)
        return [[0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
                [0.0, -al / J, -1.0 / J, -1.0 / J, 0.0, 0.0],
                [0.0, (-sg * x[2] + f1) / ee, -abs(v) / ee, 0.0, 0.0, 0.0],
                [0.0, (-sg * x[3] - f2) / eps, 0.0, -abs(v) / eps, 0.0, 0.0],
                [s, 0.0, 0.0, 0.0, 0.0, 0.0],
                [c, 0.0, 0.0, 0.0, 0.0, 0.0]]

    def run(method, rtol, atol, deadline):
        f = budgeted(rhs, deadline)
        kw = {"jac": jac} if method != "DOP853" else {}
        x = [0.0] * 6
        last = None
        nfev = 0
        for k in range(max_periods):
            x[4] = x[5] = 0.0
            r = solve_ivp(f, (k * period, (k + 1) * period), x, method=method, rtol=rtol, atol=atol * a,
                          **kw)
            if not r.success:
                raise RuntimeError(r.message)
            nfev += r.nfev
            x = [float(v) for v in r.y[:, -1]]
            n = (w / math.pi * x[4] / a, w / math.pi * x[5] / a)
            if last is not None and math.hypot(n[0] - last[0], n[1] - last[1]) < max(settle, rtol) * math.hypot(*n):
                return {"y": list(n), "nfev": nfev, "periods": k + 1}
            last = n
        raise RuntimeError(f"not settled in {max_periods} periods")

    def error(o):
        r = d["ref"]
        return math.hypot(o["y"][0] - r[0], o["y"][1] - r[1]) / math.hypot(*r)

    return run, error


PROBLEMS = {"lugre": lugre_problem, "vdp": vdp_problem, "coulomb": coulomb_problem,
            "bristle500": bristle500_problem, "cbm_fd": cbm_fd_problem, "bs": bs_problem, "pid": pid_problem,
            "df": df_problem}


def timed(fn):
    """Median wall time: ≥ 3 runs, more for fast runs (≈ 0.5 s in total, ≤ 31), 1 if > 1 s."""
    s = time.perf_counter()
    o = fn()
    first = time.perf_counter() - s
    if first > 1.0:
        return o, first, 1
    reps = min(31, max(3, math.ceil(0.5 / max(first, 1e-9))))
    ts = [first]
    for _ in range(reps - 1):
        s = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - s)
    ts.sort()
    return o, ts[len(ts) // 2], reps


def time_one(problem, method, rtol):
    """`--time-one PROBLEM METHOD RTOL`: one timed run (`timed`'s median) of one method at one rtol;
    prints `seconds error` on stdout (for `fric-bench probe`, which alternates it with our runs so
    that both see the same load)."""
    desc = json.loads((OUT / "reference.json").read_text())["problems"][problem]
    run, error = PROBLEMS[problem](desc)
    atol = rtol * desc["atol_scale"]
    o, t_run, _ = timed(lambda: run(method, rtol, atol, time.perf_counter() + RUN_BUDGET))
    print(f"{t_run} {error(o)}")


def main():
    if "--time-one" in sys.argv:
        i = sys.argv.index("--time-one")
        return time_one(sys.argv[i + 1], sys.argv[i + 2], float(sys.argv[i + 3]))
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    ref_path = OUT / "reference.json"
    if not ref_path.exists():
        sys.exit(f"{ref_path} is missing: run `cargo run --release --manifest-path bench/Cargo.toml -- run` first")
    problems = json.loads(ref_path.read_text())["problems"]
    records, ref_check = [], {}
    for name, desc in problems.items():
        if not desc.get("available", True):
            print(f"{name}: {desc.get('missing', 'not yet available')}", file=sys.stderr)
            continue
        if only and name != only:
            continue
        run, error = PROBLEMS[name](desc)
        # Cross-check of the reference.
        ref_check[name] = {}
        for m in ["DOP853", "Radau"]:
            scale = desc["atol_scale"]
            try:
                o = run(m, 1e-12, 1e-12 * scale, time.perf_counter() + desc.get("ref_check_budget", 600))
                e = error(o)
            except Timeout:
                e = None
            ref_check[name][m] = {"rtol": 1e-12, "max_diff": e if e is not None and math.isfinite(e) else None}
            print(f"reference {name}: SciPy {m} rtol 1e-12 differs from it by {e}", file=sys.stderr)
        target = desc["target"]
        for method in METHODS:
            after = None
            for rtol in LADDER:
                atol = rtol * desc["atol_scale"]
                rec = {"problem": name, "impl": "scipy", "method": method, "rtol": rtol, "atol": atol}
                t_run = 0.0
                try:
                    deadline = time.perf_counter() + RUN_BUDGET
                    o, t_run, reps = timed(lambda: run(method, rtol, atol, deadline))
                    err = error(o)
                    rec.update({"error": err if math.isfinite(err) else None, "time": t_run, "repeats": reps,
                                "steps": None, "rhs_evals": o["nfev"]})
                    print(f"{name:8} scipy {method:7} rtol {rtol:.1e}  err {err:.2e}  {t_run:.3e} s ({reps} reps, "
                          f"{o['nfev']} rhs)", file=sys.stderr)
                except Timeout:
                    t_run = RUN_BUDGET + 1e-9
                    rec.update({"error": None, "time": t_run, "failed": f"over the {RUN_BUDGET} s budget"})
                    print(f"{name:8} scipy {method:7} rtol {rtol:.1e}  over the {RUN_BUDGET} s budget", file=sys.stderr)
                except Exception as ex:  # solver failure: record it and go on
                    rec.update({"error": None, "time": None, "failed": str(ex)[:200]})
                    print(f"{name:8} scipy {method:7} rtol {rtol:.1e}  failed: {ex}", file=sys.stderr)
                records.append(rec)
                err = rec.get("error")
                if err is not None and err <= target and after is None:
                    after = 0
                elif after is not None:
                    after += 1
                if (after is not None and after >= EXTRA_AFTER_TARGET) or t_run > RUN_BUDGET:
                    break
    OUT.mkdir(exist_ok=True)
    if only and (OUT / "scipy.json").exists():  # keep the other problems' records of an earlier run
        old = json.loads((OUT / "scipy.json").read_text())
        records = [r for r in old.get("records", []) if r["problem"] != only] + records
        ref_check = {**{k: v for k, v in old.get("reference_check", {}).items() if k != only}, **ref_check}
    out = {
        "side": "scipy",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "budget_s": RUN_BUDGET,
        "reference_check": ref_check,
        "records": records,
    }
    (OUT / "scipy.json").write_text(json.dumps(out, indent=1))
    print(f"wrote {OUT / 'scipy.json'}", file=sys.stderr)


if __name__ == "__main__":
    main()
