// LiRA (Carlini et al. 2022, core/audit/lira.h) for the GUI: the result as a run's record keeps
// it, the checks and the cost estimate shown before the shadows are trained, and the sentence
// that says what the stronger of the two attacks found. Formatting and checks only: the attack
// is core/audit's.
#pragma once

#include <QString>

#include "base/io/run_record.h"
#include "core/audit/lira.h"
#include "core/train/experiment_config.h"

namespace epsilon::ui {

LiraRecord liraRecordOf(const audit::LiraAttack& lira);

// Why LiRA with `shadows` shadow models cannot attack a run of `config` whose training split has
// `trainSize` rows and held-out split `heldOutSize` (either 0: not known, not checked), naming
// the control `control`; empty when it can. Checks LiraOptions::validate (the shadow count's
// limits), requireShadowable (scattering presets) and that the candidate pool splits in halves.
QString liraProblem(const train::ExperimentConfig& config, int shadows, long long trainSize,
                    long long heldOutSize, const QString& control);

// What LiRA will cost, said before it starts: each shadow trains the run's configuration again,
// so `shadows` × the run's own recorded time (`runSeconds`; ≤ 0: not recorded).
QString liraCostText(int shadows, double runSeconds);

// "LiRA (16 shadows) finds 17.0% of the members at 1% false positives and 4.2% at 0.1%; the loss
// threshold 1.4% and 0.1%." followed by which attack is the stronger one at the lowest rate
// where either finds a member. `loss` may be null (not computed yet).
QString liraFindingText(const LiraRecord& lira, const AttackRecord* loss);

}  // namespace epsilon::ui
