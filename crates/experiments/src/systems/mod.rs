//! The registry: every system a manifest can name, one file each, listed once below. Validation,
//! execution and `cargo xtask schema` are derived from this list.
//!
//! To add a system: write `systems/<name>.rs` with a [`params!`](crate::system) struct and an
//! `impl System`, then add one line `<name>::<Type>,` here.

use crate::system::{info, SystemInfo};

macro_rules! registry {
    ($($module:ident :: $system:ident),* $(,)?) => {
        $(mod $module;)*

        /// Every system, in the order `schema` lists them.
        pub(crate) fn all() -> Vec<SystemInfo> {
            vec![$(info::<$module::$system>()),*]
        }
    };
}

registry! {
    linear_msd::LinearMsd,
    cubic::Cubic,
    cubic_equilibria::CubicEquilibria,
    coulomb_friction_curve::CoulombFrictionCurve,
    coulomb_mass_spring::CoulombMassSpring,
    coulomb_equilibria::CoulombEquilibria,
    maxwell_slip::MaxwellSlip,
    maxwell_slip_area::MaxwellSlipArea,
    dahl::Dahl,
    lugre::LuGre,
    lugre_passivity::LuGrePassivity,
    lugre_lyapunov::LuGreLyapunov,
    lugre_linearisation::LuGreLinearisation,
    lugre_steady_state::LuGreSteadyState,
    ruderman_potential::RudermanPotential,
    ruderman_omega::RudermanOmega,
    ruderman_branch::RudermanBranch,
    ruderman_reversals::RudermanReversals,
    cbm_stick_slip::CbmStickSlip,
    cbm_force_driven::CbmForceDriven,
    cbm_prescribed_height::CbmPrescribedHeight,
    lugre_stick_slip::LuGreStickSlip,
    cbm_mean_height::CbmMeanHeight,
    cbm_mean_curve::CbmMeanCurve,
    ruderman_oscillator::RudermanOscillator,
    ruderman_oscillator_reversals::RudermanOscillatorReversals,
    semilinear_duhem::SemilinearDuhem,
    mass_spring_dahl::MassSpringDahl,
    mass_spring_lugre::MassSpringLuGre,
    mass_spring_maxwell_slip::MassSpringMaxwellSlip,
    drum_dahl::DrumDahl,
    drum_lugre::DrumLuGre,
    drum_maxwell_slip::DrumMaxwellSlip,
    multiplay::Multiplay,
    multiplay_inverse::MultiplayInverse,
    multiplay_identify::MultiplayIdentify,
    butterfly_transform::ButterflyTransform,
    generalized_pi::GeneralizedPi,
    two_bar_linkage::TwoBarLinkage,
    two_bar_linkage_equilibria::TwoBarLinkageEquilibria,
    rbm_prescribed::RbmPrescribed,
    drbm_stick_slip::DrbmStickSlip,
    drbm_force_driven::DrbmForceDriven,
    bliman_sorine::BlimanSorine,
    bliman_sorine_identify::BlimanSorineIdentify,
    static_friction_map::StaticFrictionMap,
    inertia_bliman_sorine::InertiaBlimanSorine,
    inertia_lugre::InertiaLuGre,
    ffbm_force_driven::FfbmForceDriven,
    sawtooth_equilibria::SawtoothEquilibria,
    rbm_stick_slip::RbmStickSlip,
    rbm_stick_slip_table::RbmStickSlipTable,
    pid_design::PidDesign,
    servo_setup::ServoSetup,
    pid_limit_cycle_estimate::PidLimitCycleEstimate,
    inertia_pid_lugre::InertiaPidLuGre,
    inertia_pid_classical::InertiaPidClassical,
    inertia_pid_bliman_sorine::InertiaPidBlimanSorine,
    frequency_response::FrequencyResponse,
    describing_function_lugre::DescribingFunctionLuGre,
    describing_function_bliman_sorine::DescribingFunctionBlimanSorine,
    describing_function_classical::DescribingFunctionClassical,
}
