// LiRA's shadows kept beside a run (audit::ShadowSet, core/audit/lira.h): their memberships, φ
// and held-out accuracy in one JSON file named by what they depend on, so the next attack on a
// target of the same configuration, data and members reuses them instead of training again.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <atomic>

#include "core/audit/lira.h"
#include "core/data/dataset.h"
#include "core/train/experiment_config.h"

namespace epsilon::ui {

// "lira-shadows-<16 hex digits>.json": SHA-256 of the experiment's JSON (seed included), the
// training data's content hash and the member rows' range, so equal names mean shadows that
// can be reused.
QString liraShadowFileName(const train::ExperimentConfig& config, const data::Dataset& training,
                           long long memberRows);

// {"format": "epsilonlab-lira-shadows", "version": 1, "candidates": n,
//  "shadows": [{"in": "0110…", "phi": [...], "out_accuracy": a}, ...]} (φ round-trips exactly).
QJsonObject shadowSetToJson(const audit::ShadowSet& set);
// Throws ConfigError naming the key path ("shadows[3].phi: ...").
audit::ShadowSet shadowSetFromJson(const QJsonObject& object);

// Written atomically; read through the bounded reader (throws ConfigError "<path>: ...").
void writeShadowSet(const QString& path, const audit::ShadowSet& set);
audit::ShadowSet readShadowSet(const QString& path);

// Where the GUI keeps shadows: beside the session file `sessionPath` ("runs.json" →
// "runs-lira-shadows/"), or, before the session is saved, "lira-shadows/" in the app's data
// folder. The file names say what the shadows depend on, so one folder serves many runs.
QString liraShadowFolder(const QString& sessionPath);

// LiRA on `target` (audit::runLira, in the calling TBB arena, which sets the thread budget)
// keeping its shadows in `folder` (empty: nothing kept): shadows kept there for the same
// configuration, data and members are reused, and a larger set than the one kept replaces it.
// A kept file that cannot be read is trained again, and a set that cannot be written is not
// kept; both are said in `warnings`. A cancelled attack writes nothing.
audit::LiraAttack runLiraKeepingShadows(const nn::Model<float>& target,
                                        const train::ExperimentConfig& config,
                                        const data::Dataset& training, long long memberRows,
                                        const audit::LiraOptions& options, const QString& folder,
                                        const audit::ShadowProgress& onProgress = {},
                                        const std::atomic<bool>* cancel = nullptr,
                                        QStringList* warnings = nullptr);

}  // namespace epsilon::ui
