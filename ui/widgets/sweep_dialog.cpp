#include "ui/widgets/sweep_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>

#include "ui/widgets/cluster_options.h"

namespace epsilon::ui {

namespace {
const QString kKey = QStringLiteral("sweep/");
QString key(const char* name) {
  return kKey + QLatin1String(name);
}
}  // namespace

std::vector<std::string> splitValues(const QString& text) {
  std::vector<std::string> values;
  for (const QString& part :
       text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts))
    values.push_back(part.toStdString());
  return values;
}

SweepDialog::SweepDialog(const train::ExperimentConfig& base, QWidget* parent)
    : QDialog(parent), m_base(base) {
  setWindowTitle(tr("Sweep"));
  auto* form = new QFormLayout(this);
  auto* intro = new QLabel(
      tr("Every combination of the values becomes a run of the panel's experiment with those "
         "parameters changed; the runs train side by side and the accuracy-vs-ε chart traces "
         "the frontier they span."));
  intro->setWordWrap(true);
  form->addRow(intro);
  QStringList names;
  for (const auto& n : train::sweepParameterNames()) names << QString::fromStdString(n);
  const QString defaults[2] = {QStringLiteral("0.5, 1, 2, 4"), QStringLiteral("1, 4")};
  for (int i = 0; i < 2; ++i) {
    m_parameter[i] = new QComboBox(this);
    m_parameter[i]->addItems(names);
    m_parameter[i]->setCurrentText(i == 0 ? QStringLiteral("noise_multiplier")
                                          : QStringLiteral("clip_norm"));
    m_values[i] = new QLineEdit(defaults[i], this);
    m_values[i]->setToolTip(
        tr("Values separated by commas or spaces; names for optimizer (sgd, momentum, adam, "
           "adagrad, rmsprop), privatizer (clip, tanh, adaptive, none) and noise_schedule "
           "(constant, time, step, exp)."));
    connect(m_parameter[i], &QComboBox::currentIndexChanged, this, &SweepDialog::refresh);
    connect(m_values[i], &QLineEdit::textChanged, this, &SweepDialog::refresh);
  }
  form->addRow(tr("Parameter"), m_parameter[0]);
  form->addRow(tr("Values"), m_values[0]);
  m_useSecond = new QCheckBox(tr("Vary a second parameter"), this);
  connect(m_useSecond, &QCheckBox::toggled, this, &SweepDialog::refresh);
  form->addRow(m_useSecond);
  form->addRow(tr("Second parameter"), m_parameter[1]);
  form->addRow(tr("Values"), m_values[1]);
  m_cluster = new ClusterOptions(QStringLiteral("sweep"), this);
  connect(m_cluster, &ClusterOptions::changed, this, &SweepDialog::refresh);
  form->addRow(m_cluster);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  form->addRow(m_summary);
  m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Run sweep"));
  connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(m_buttons);
  restore();
  refresh();
}

void SweepDialog::restore() {
  const QSettings settings;
  for (int i = 0; i < 2; ++i) {
    const QString n = QString::number(i + 1);
    const QString parameter = settings.value(kKey + QStringLiteral("parameter") + n).toString();
    if (m_parameter[i]->findText(parameter) >= 0) m_parameter[i]->setCurrentText(parameter);
    m_values[i]->setText(
        settings.value(kKey + QStringLiteral("values") + n, m_values[i]->text()).toString());
  }
  m_useSecond->setChecked(settings.value(key("second"), false).toBool());
}

void SweepDialog::remember() const {
  QSettings settings;
  for (int i = 0; i < 2; ++i) {
    const QString n = QString::number(i + 1);
    settings.setValue(kKey + QStringLiteral("parameter") + n, m_parameter[i]->currentText());
    settings.setValue(kKey + QStringLiteral("values") + n, m_values[i]->text());
  }
  settings.setValue(key("second"), m_useSecond->isChecked());
  m_cluster->remember();
}

void SweepDialog::done(int result) {
  remember();
  QDialog::done(result);
}

void SweepDialog::setAxis(int which, const QString& parameter, const QString& values) {
  m_parameter[which]->setCurrentText(parameter);
  m_values[which]->setText(values);
  if (which == 1) m_useSecond->setChecked(true);
}

std::vector<train::SweepAxis> SweepDialog::axes() const {
  std::vector<train::SweepAxis> result;
  const int count = m_useSecond->isChecked() ? 2 : 1;
  for (int i = 0; i < count; ++i)
    result.push_back(
        {m_parameter[i]->currentText().toStdString(), splitValues(m_values[i]->text())});
  return result;
}

std::vector<train::SweepPoint> SweepDialog::points(QString* error) const {
  try {
    return train::expandSweep(m_base, axes());
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return {};
  }
}

void SweepDialog::refresh() {
  for (QWidget* w : {static_cast<QWidget*>(m_parameter[1]), static_cast<QWidget*>(m_values[1])})
    w->setEnabled(m_useSecond->isChecked());
  QString error;
  const auto expanded = points(&error);
  if (!expanded.empty()) error = m_cluster->problem();
  const bool ok = !expanded.empty() && error.isEmpty();
  if (!ok) {
    m_summary->setText(
        QStringLiteral("<span style='color:#c00'>%1</span>").arg(error.toHtmlEscaped()));
  } else if (m_cluster->runOnCluster()) {
    m_summary->setText(tr("%n run(s) will be sent to Slurm as a job array.", nullptr,
                          static_cast<int>(expanded.size())));
  } else {
    m_summary->setText(tr("%n run(s) will train.", nullptr, static_cast<int>(expanded.size())));
  }
  m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
  adjustSize();
}

}  // namespace epsilon::ui
