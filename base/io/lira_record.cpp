#include "base/io/lira_record.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

#include "base/io/attack_figure.h"
#include "base/io/number_format.h"
#include "core/audit/run_attack.h"
#include "core/common/errors.h"

namespace epsilon::ui {

namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("Lira", text);
}

QString percent(double fraction) {
  return QString::number(100.0 * fraction, 'f', fraction < 0.1 ? 2 : 1) + QLatin1Char('%');
}

}  // namespace

LiraRecord liraRecordOf(const audit::LiraAttack& lira) {
  LiraRecord record;
  const audit::MembershipAttack& a = lira.attack;
  record.attack.auc = a.auc;
  record.attack.tprAt1Percent = a.tprAtFpr1Percent;
  record.attack.tprAt01Percent = a.tprAtFpr01Percent;
  record.attack.advantage = a.advantage;
  record.attack.members = a.members;
  record.attack.nonMembers = a.nonMembers;
  const audit::RocCurve drawn = audit::thinRoc(a.roc);
  record.attack.roc = curvePoints(drawn.fpr, drawn.tpr);
  record.shadows = lira.shadows;
  record.reusedShadows = lira.reusedShadows;
  record.test = QString::fromStdString(audit::liraTestName(lira.test));
  record.globalVariance = lira.globalVariance;
  record.seconds = lira.shadowSeconds + lira.attackSeconds;
  return record;
}

QString liraProblem(const train::ExperimentConfig& config, int shadows, long long trainSize,
                    long long heldOutSize, const QString& control) {
  audit::LiraOptions options;
  options.shadows = shadows;
  try {
    options.validate();
    audit::requireShadowable(config);
  } catch (const ConfigError& e) {
    // The core message names its field ("audit.shadows: …"); the GUI names its control.
    QString message = QString::fromUtf8(e.what());
    const qsizetype colon = message.indexOf(QStringLiteral(": "));
    if (colon >= 0 && message.startsWith(QStringLiteral("audit.")))
      message = message.mid(colon + 2);
    return QStringLiteral("%1: %2").arg(control, message);
  }
  // Members and as many held-out non-members (attackCandidates): each half of the pool needs a
  // member and a non-member on average, so at least 2 of each.
  if (trainSize > 0 && heldOutSize > 0 && std::min(trainSize, heldOutSize) < 2) {
    return tr("%1: the candidate pool (%2 members, %2 non-members) is too small to split in "
              "halves; LiRA needs at least 2 training and 2 held-out examples")
        .arg(control)
        .arg(std::min(trainSize, heldOutSize));
  }
  return {};
}

QString liraCostText(int shadows, double runSeconds) {
  if (runSeconds <= 0.0) {
    return tr("Cost: %1 training runs like this run (its time was not recorded); shadows kept "
              "from an earlier attack of the same configuration are reused")
        .arg(shadows);
  }
  return tr("Cost: about %1 × %2 = %3 (%1 training runs like this run); shadows kept from an "
            "earlier attack of the same configuration are reused")
      .arg(shadows)
      .arg(formatDuration(runSeconds), formatDuration(shadows * runSeconds));
}

QString liraFindingText(const LiraRecord& lira, const AttackRecord* loss) {
  const AttackRecord& l = lira.attack;
  QString text = tr("LiRA (%1 shadows) finds %2 of the members at 1% false positives and %3 at "
                    "0.1%")
                     .arg(lira.shadows)
                     .arg(percent(l.tprAt1Percent), percent(l.tprAt01Percent));
  if (!loss) return text + tr("; the loss threshold is not computed yet.");
  text += tr("; the loss threshold %1 and %2.")
              .arg(percent(loss->tprAt1Percent), percent(loss->tprAt01Percent));
  // Compare where it matters most: the lowest false-positive rate at which either finds one.
  const bool atTenth = l.tprAt01Percent > 0.0 || loss->tprAt01Percent > 0.0;
  const double a = atTenth ? l.tprAt01Percent : l.tprAt1Percent;
  const double b = atTenth ? loss->tprAt01Percent : loss->tprAt1Percent;
  const QString rate = atTenth ? QStringLiteral("0.1%") : QStringLiteral("1%");
  if (a == b) return text + tr(" At %1 false positives the two attacks find as many.").arg(rate);
  const QString stronger = a > b ? tr("LiRA") : tr("The loss threshold");
  if (std::min(a, b) <= 0.0)
    return text + tr(" %1 is the stronger attack at %2 false positives.").arg(stronger, rate);
  return text + tr(" %1 is the stronger attack at %2 false positives (%3× the other).")
                    .arg(stronger, rate, QString::number(std::max(a, b) / std::min(a, b), 'f', 1));
}

}  // namespace epsilon::ui
