// The live privacy readout: the ε the configured run will spend, big, with its δ,
// accountant and sampling assumption; its curve over epochs; one sentence of what it means
// for a membership attacker; and for the tanh filter the paper's nominal ε beside the
// honest one, plainly marked as no guarantee; for pca-mlp the DP-PCA release on its own line.
// Follows the sliders with no training: RDP with constant noise is computed at once, anything
// slower on a worker (latest request wins). The same input asked again (a "Fix ε" drag moves
// the target, not the settings, until a calibration brings a new σ) computes and lays out
// nothing; a slow preview says "computing" only when it has not come back within a moment.
#pragma once

#include <QWidget>
#include <optional>

#include "base/io/privacy_preview.h"
#include "base/jobs/job_service.h"

class QTimer;
QT_BEGIN_NAMESPACE
class QChartView;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace epsilon::ui {

class SteadyLabel;

class PrivacyReadout : public QWidget {
  Q_OBJECT
 public:
  explicit PrivacyReadout(QWidget* parent = nullptr);

  // Recomputes for `input` (instantly when cheap, else in the background).
  // What the readout describes: the panel's settings (`runName` empty: not yet run) or a
  // selected run's configuration; subjectChanged says which (the dock shows it in its title,
  // which takes no room from the numbers).
  void setInput(const PrivacyPreviewInput& input, const QString& runName = {});
  // The target ε "Fix ε" calibrates to (nullopt: none): an ε within 1% of it is written with
  // the digits that tell its side (formatEpsilonAgainst), never a rounded "2".
  void setTargetEpsilon(std::optional<double> target);
  QString subjectText() const;
  const PrivacyPreview& preview() const { return m_preview; }
  QString epsilonText() const;  // what the big label shows
  QString pcaText() const;      // the DP-PCA line (empty without pca-mlp)
  bool isComputing() const { return m_request.busy(); }
  void setPresentationMode(bool on);

 Q_SIGNALS:
  void previewUpdated();
  void subjectChanged(const QString& subject);

 private:
  void buildChart();  // ε over epochs, with the tanh filter's nominal curve dashed
  void show(const PrivacyPreview& preview);
  void showEpsilon();  // the big label, from m_preview and m_target
  void showCurves(const PrivacyPreview& preview);
  void showPca(const PrivacyPreview& preview);

  QString m_subject;  // what the numbers describe (the dock's title says it)
  // Labels that lay the readout out again only when their size changes (steady_label.h): a
  // preview delivered while "Fix ε" is dragged changes digits, rarely sizes.
  SteadyLabel* m_epsilon;
  SteadyLabel* m_label;
  SteadyLabel* m_nominal;
  SteadyLabel* m_pca;
  SteadyLabel* m_sentence;
  QChartView* m_chartView;
  QLineSeries* m_curve;
  QLineSeries* m_nominalCurve;
  QValueAxis* m_x;
  QValueAxis* m_y;
  PrivacyPreview m_preview;
  std::optional<double> m_target;
  // The panel's input last asked for: shown, or on its way (nullopt: ask again).
  std::optional<PrivacyPreviewInput> m_asked;
  QTimer* m_computingNote;  // says "computing" if a preview is still out when it fires
  LatestRequest m_request;  // the preview of the newest input, off the GUI thread
};

}  // namespace epsilon::ui
