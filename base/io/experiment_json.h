// The versioned experiment file format (docs/ARCHITECTURE.md, "Config and session files") and the
// JSON forms of a run's progress and result: ExperimentConfig <-> QJsonObject, one evaluation as
// one JSON object, a whole run (config + history) and its history as CSV. Strict: an unknown
// key, a wrong type or an impossible value is a ConfigError naming the key.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

#include "core/train/experiment_config.h"
#include "core/train/progress.h"

namespace epsilon::ui {

inline constexpr const char* kExperimentFormat = "epsilonlab-experiment";
inline constexpr int kExperimentVersion = 1;

// {"format": "epsilonlab-experiment", "version": 1, "dataset": {...}, "model": {...},
//  "privacy": {...}, "optimizer": {...}, "training": {...}} with every field written.
QJsonObject experimentToJson(const train::ExperimentConfig& config);

// Reads the keys present in `json` over `base` (absent keys keep base's values), so a file
// may give only what differs from the defaults. Throws ConfigError "<section.key>: …" for an
// unknown key, a wrong type, a wrong format or version. Does not call validate().
train::ExperimentConfig experimentFromJson(const QJsonObject& json,
                                           const train::ExperimentConfig& base = {});

// Reads and parses a file; errors name the file. Throws ConfigError. A file without a
// "dataset" section is refused (the run would silently train on the base's data set) unless
// `datasetGiven` says the caller sets the data set itself (a --dataset flag).
train::ExperimentConfig readExperimentFile(const QString& path,
                                           const train::ExperimentConfig& base = {},
                                           bool datasetGiven = false);

// The same for a file already read (readJsonObjectFile with kMaxExperimentFileBytes), so that a
// caller that looks at its format first reads it once.
train::ExperimentConfig experimentFromFileJson(const QJsonObject& json, const QString& path,
                                               const train::ExperimentConfig& base = {},
                                               bool datasetGiven = false);
inline constexpr qint64 kMaxExperimentFileBytes = 16 << 20;  // an experiment: a few hundred bytes

// One event: the evaluation point's schema (base/io/eval_point_json.h: NaN null, ∞ "inf") and
// run, total_steps, delta, accountant, sampling, privacy_status, epsilon_is_guarantee, …
QJsonObject progressToJson(const train::ProgressEvent& event);
// A privacy statement's keys (privacy_statement.h), as run files, `epsilon`, `calibrate` and
// `audit` write them: epsilon (null for ∞), delta, accountant, sampling, privacy_status,
// epsilon_is_guarantee, rdp_order, nominal_epsilon and nominal_label (tanh), pca_label,
// sigma_rounded_for_accounting. Inserted into `into`.
void insertStatement(QJsonObject& into, const privacy::PrivacyStatement& statement);
// {"format": "epsilonlab-run", "version": 1, "status", "message", "experiment": {...},
//  "history": [...], "model": {...}}.
QJsonObject runToJson(const train::RunResult& result);
// The history as CSV with a header line (progressCsvColumns: progressToJson's keys).
QByteArray historyToCsv(const std::vector<train::ProgressEvent>& history);
const QStringList& progressCsvColumns();

}  // namespace epsilon::ui
