/*
 * bench/crosscheck/bs_df_gap.c -- one-off cross-check for report Fig 5.24 (issue 46 item 4,
 * issue 43): what is the response of the Bliman & Sorine inertia, third DF approach, for torque
 * amplitudes inside and at the edges of the second DF gap near a = 0.36 N·m, ω = 1.8…2.0 rad/s?
 *
 * Shares NO code with the project (crates/solvers, crates/models, crates/experiments): the model
 * is written here from the report's equations and integrated by a hand-written DOPRI5.
 *   J θ'' = a sin ωt − α θ' − (x1 + x2)                       (App. C / catalog M6, third approach L1929)
 *   x1'   = −|θ'| x1/(ε_f η) + (f1/(ε_f η)) θ'                 (2.12)
 *   x2'   = −|θ'| x2/ε_f     − (f2/ε_f) θ'                     (2.12)
 * from rest (all states 0, L656), parameters of Table 5.9 unrounded as in the manifest
 * (f1 = 0.454939, f2 = 0.234939, ε_f = 0.00666667, η = 0.279131, α = 0.017, J = 0.0025).
 * The full ODE with |θ'| is integrated (no reversal events: the right-hand side is continuous),
 * unlike the project's exact path form; steps end exactly at t = kT.
 * For every period k it prints the Poincaré sample at t = kT (θ, θ', x1, x2), the net drift of θ
 * over the period and the first harmonic of θ over that period with the drift removed:
 *   b1 = (2/T)∫(θ − d τ/T) sin ωt, a1 = (2/T)∫θ cos ωt, N = (b1 + i a1)/a, −1/N.
 * Usage: bs_df_gap a omega periods rtol   -> lines "k theta v x1 x2 drift re(-1/N) im(-1/N)".
 * Build: cc -O2 -o /tmp/bs_df_gap bench/crosscheck/bs_df_gap.c -lm.  Driver: bs_df_gap.py.
 * Never part of the tests or the main job (`cargo xtask check/figures`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double F1 = 0.454939, F2 = 0.234939, EPS = 0.00666667, ETA = 0.279131, ALPHA = 0.017, J = 0.0025;
static double A, W;

/* y = θ, v, x1, x2, q1 = ∫θ sin ωt, q2 = ∫θ cos ωt */
static void rhs(double t, const double *y, double *f) {
    double v = y[1], av = fabs(v);
    f[0] = v;
    f[1] = (A * sin(W * t) - ALPHA * v - (y[2] + y[3])) / J;
    f[2] = -av * y[2] / (EPS * ETA) + F1 / (EPS * ETA) * v;
    f[3] = -av * y[3] / EPS - F2 / EPS * v;
    f[4] = y[0] * sin(W * t);
    f[5] = y[0] * cos(W * t);
}

#define N 6
#define NE 4 /* error-controlled states */

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: a omega periods rtol\n"); return 2; }
    A = atof(argv[1]); W = atof(argv[2]);
    int periods = atoi(argv[3]);
    double rtol = atof(argv[4]), atol = 1e-13;
    double T = 2 * M_PI / W;
    static const double c2 = 1. / 5, c3 = 3. / 10, c4 = 4. / 5, c5 = 8. / 9;
    static const double a21 = 1. / 5, a31 = 3. / 40, a32 = 9. / 40, a41 = 44. / 45, a42 = -56. / 15, a43 = 32. / 9,
                        a51 = 19372. / 6561, a52 = -25360. / 2187, a53 = 64448. / 6561, a54 = -212. / 729,
                        a61 = 9017. / 3168, a62 = -355. / 33, a63 = 46732. / 5247, a64 = 49. / 176, a65 = -5103. / 18656,
                        b1 = 35. / 384, b3 = 500. / 1113, b4 = 125. / 192, b5 = -2187. / 6784, b6 = 11. / 84,
                        e1 = 71. / 57600, e3 = -71. / 16695, e4 = 71. / 1920, e5 = -17253. / 339200, e6 = 22. / 525, e7 = -1. / 40;
    double y[N] = {0}, k1[N], k2[N], k3[N], k4[N], k5[N], k6[N], k7[N], yt[N], yn[N];
    double t = 0, h = 1e-4;
    long steps = 0, rejected = 0;
    double th0 = 0;
    rhs(t, y, k1);
    for (int k = 1; k <= periods; k++) {
        double tend = k * T;
        y[4] = y[5] = 0;
        while (t < tend) {
            int last = 0;
            if (t + h >= tend) { h = tend - t; last = 1; }
            int i;
            for (i = 0; i < N; i++) yt[i] = y[i] + h * a21 * k1[i];
            rhs(t + c2 * h, yt, k2);
            for (i = 0; i < N; i++) yt[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
            rhs(t + c3 * h, yt, k3);
            for (i = 0; i < N; i++) yt[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
            rhs(t + c4 * h, yt, k4);
            for (i = 0; i < N; i++) yt[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
            rhs(t + c5 * h, yt, k5);
            for (i = 0; i < N; i++) yt[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
            rhs(t + h, yt, k6);
            for (i = 0; i < N; i++) yn[i] = y[i] + h * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
            double tn = last ? tend : t + h;
            rhs(tn, yn, k7);
            double err = 0;
            for (i = 0; i < NE; i++) {
                double e = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
                double sc = atol + rtol * fmax(fabs(y[i]), fabs(yn[i]));
                err += (e / sc) * (e / sc);
            }
            err = sqrt(err / NE);
            double fac = err > 0 ? 0.9 * pow(err, -0.2) : 5;
            fac = fmin(5, fmax(0.2, fac));
            if (err <= 1) {
                t = tn;
                for (i = 0; i < N; i++) { y[i] = yn[i]; k1[i] = k7[i]; }
                steps++;
                if (!last) h *= fac;
                else h = fmax(h, 1e-6); /* the clipped last step of a period: restart from it */
            } else {
                rejected++;
                h *= fac;
            }
        }
        double d = y[0] - th0;
        double bb = 2 / T * (y[4] + d / W), aa = 2 / T * y[5];
        double nr = bb / A, ni = aa / A, m2 = nr * nr + ni * ni;
        printf("%d %.15e %.15e %.15e %.15e %.15e %.15e %.15e\n", k, y[0], y[1], y[2], y[3], d, -nr / m2, ni / m2);
        th0 = y[0];
    }
    fprintf(stderr, "steps %ld rejected %ld\n", steps, rejected);
    return 0;
}
