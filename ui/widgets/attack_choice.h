// The Attack tab's choice of attack: "Loss threshold (instant)" (Yeom et al. 2018) on the shown
// runs that have no result yet, or "LiRA (N shadow runs)" (Carlini et al. 2022) on the first
// shown run, with its shadow count, its cost estimate before it starts, Start, Cancel and its
// progress. It asks the AttackController and base/io/lira_record.h; it computes nothing itself.
#pragma once

#include <QWidget>

class QComboBox;
class QPushButton;
class QSpinBox;

namespace epsilon::ui {

class AttackController;
class JobProgressLine;
class RunModel;

class AttackChoice : public QWidget {
  Q_OBJECT
 public:
  AttackChoice(RunModel* model, AttackController* controller, QWidget* parent = nullptr);

  // The run LiRA would attack (0: none shown) and whether a shown run lacks the loss threshold.
  void setTargets(int liraTarget, bool lossMissing);
  void chooseLira(bool lira);
  bool liraChosen() const;

  QComboBox* attackKind() const { return m_kind; }
  QSpinBox* shadowCount() const { return m_shadows; }
  QPushButton* startButton() const { return m_start; }
  QPushButton* cancelButton() const { return m_cancel; }
  // The cost estimate, or why LiRA cannot start (naming the control); the tab shows it above
  // its numbers (noteHtml, red for a problem).
  QString noteText() const;
  QString noteHtml() const;
  QString statusText() const;

 Q_SIGNALS:
  void lossRequested();  // Start with the loss threshold chosen
  void noteChanged();

 private:
  void explainControls();  // the tooltips
  void setNote(const QString& note, bool problem);
  void start();
  void updateControls();
  void onProgress(int runId, double fraction, const QString& message);
  void onEnded(int runId, const QString& message);

  RunModel* m_model;
  AttackController* m_controller;
  int m_target = 0;
  bool m_lossMissing = false;
  QComboBox* m_kind;
  QSpinBox* m_shadows;
  QPushButton* m_start;
  QPushButton* m_cancel;
  QString m_note;
  bool m_noteIsProblem = false;
  JobProgressLine* m_line;
};

}  // namespace epsilon::ui
