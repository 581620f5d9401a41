// The Attack tab: for the selected runs (else every shown run), the loss-threshold membership
// attack's ROC and, once run, LiRA's (solid; the loss threshold then dashed) over each run's
// accountant trade-off bound and the chance line, log-log or linear, one colour per run; beside
// it each run's AUC, TPR at FPR 1% and 0.1%, advantage and "measured ε̂ ≥ x vs accountant
// ε ≤ y", and what the stronger attack found; the choice of attack (AttackChoice: the loss
// threshold, or LiRA with its shadows, cost, progress, cancel) and the canary audit. The chart is
// base/io/attack_figure.h's, as in `epsilonlab-cli audit --plot`. It asks the AttackController; it
// computes nothing itself.
#pragma once

#include <QList>
#include <QWidget>
#include <functional>

#include "base/io/figure_file.h"
#include "base/io/run_record.h"

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;
QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace epsilon::ui {

class AttackChoice;
class AttackController;
class CoalescedRefresh;
class JobProgressLine;
class RunModel;

class AttackView : public QWidget {
  Q_OBJECT
 public:
  AttackView(RunModel* model, AttackController* controller, QWidget* parent = nullptr);

  // The runs to show (the Runs table's selection); empty: every visible run.
  void setRuns(const QList<int>& runIds);
  QList<int> shownRuns() const;
  void setLogAxes(bool on);
  // The chart's tick labels and axis titles in this size (the run charts' size: presentation
  // mode and View › Chart text size); 0 keeps the chart theme's.
  void setChartPointSize(int points);
  // How many training examples a run's data set has (0: not known yet), so the canary count
  // can default to what the set allows and an impossible count is marked at its control.
  using TrainingSetSize = std::function<long long(const RunRecord& run)>;
  void setTrainingSetSize(TrainingSetSize size);
  // Redraws now (tests, screenshots); normally redraws are coalesced, and none is done while
  // the tab is hidden in a shown window: it refreshes as it is shown (CoalescedRefresh).
  void refreshNow();
  int refreshCount() const;

  const Figure& figure() const { return m_figure; }
  QChartView* chartView() const { return m_chartView; }
  QString summaryText() const;  // the text beside the chart, as plain text
  // Start with the loss threshold chosen: computes the shown runs' missing results.
  QPushButton* computeButton() const;
  AttackChoice* attackChoice() const { return m_choice; }
  QPushButton* auditButton() const { return m_audit; }
  QPushButton* cancelAuditButton() const { return m_cancelAudit; }
  QSpinBox* canaryCount() const { return m_canaries; }
  QComboBox* canaryKind() const { return m_kind; }
  // Why the canary count cannot be audited (shown under the controls), or empty.
  QString canaryProblem() const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  QWidget* buildSidePanel();
  void buildAuditControls(QWidget* side);
  void arrangeAuditControls(bool oneRow);
  void scheduleRefresh();
  void rebuild();  // the chart and the numbers from the model
  void hideLegend();
  void showSummary();
  void computeMissing();
  void startAudit();
  void onAuditProgress(int runId, double fraction, const QString& message);
  void onAuditEnded(int runId, const QString& message);
  QString missingReason(int runId) const;
  void updateButtons();
  void followCanaryDefault();
  bool showCanaryProblem();

  RunModel* m_model;
  AttackController* m_controller;
  QList<int> m_selected;
  Figure m_figure;
  QChartView* m_chartView;
  QSplitter* m_splitter = nullptr;
  QCheckBox* m_logAxes = nullptr;
  QLabel* m_summary = nullptr;
  QString m_summaryHtml;  // the key and the runs' table, under LiRA's note
  AttackChoice* m_choice = nullptr;
  QPushButton* m_audit = nullptr;
  QPushButton* m_cancelAudit = nullptr;
  QSpinBox* m_canaries = nullptr;
  QComboBox* m_kind = nullptr;
  QGridLayout* m_auditControls = nullptr;
  JobProgressLine* m_status = nullptr;
  CoalescedRefresh* m_refresh;
  QLabel* m_canaryNote = nullptr;
  TrainingSetSize m_trainingSetSize;
  bool m_canariesChosen = false;  // the user set the count: it no longer follows the run
  bool m_settingCanaries = false;
  bool m_arranged = false;
  int m_chartPoints = 0;  // the splitter's halves are set once the tab has its size
};

}  // namespace epsilon::ui
