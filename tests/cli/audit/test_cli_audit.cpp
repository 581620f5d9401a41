// `epsilonlab-cli audit` and `audit-bound`, run as a user would: the bound against the
// library's number, a small audited run's JSON (attack, lower and upper bounds with δ,
// accountant and sampling), its --out file and --plot chart, and exit 2 naming the flag.
#ifdef EPSILON_HAVE_PLOT
#include <QImage>
#endif
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "cli_runner.h"

namespace {

using Run = epsilon::test::CliOutcome;
using epsilon::test::runCli;

QJsonObject parseJson(const QByteArray& bytes) {
  const QJsonDocument document = QJsonDocument::fromJson(bytes);
  return document.isObject() ? document.object() : QJsonObject{};
}

QJsonObject parseJson(const QString& text) {
  return parseJson(text.toUtf8());
}

// A small private run on uci-digits: 600 training rows, 200 canaries, a few epochs.
QStringList smallAudit() {
  const QString flags =
      "audit --dataset uci-digits --max-train 600 --model mlp --hidden 64 --batch-size 64 --epochs "
      "10 --lr 0.3 "
      "--noise-multiplier 1.0 --clip-norm 1 --canaries 200 --seed 3 --threads 2";
  return flags.split(' ');
}

}  // namespace

class TestCliAudit : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void boundAlone() {
    const Run run = runCli({"audit-bound", "--canaries", "1000", "--guesses", "100", "--correct",
                            "80", "--delta", "0"});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.count(QLatin1Char('\n')), 1);
    const QJsonObject json = parseJson(run.out);
    // The same number as test_audit_bound's direct binomial-tail check (0.958392045).
    QVERIFY(std::abs(json["epsilon_lower_bound"].toDouble() - 0.958392045) < 1e-6);
    QCOMPARE(json["confidence"].toDouble(), 0.95);
    const Run none = runCli({"audit-bound", "--canaries", "1000", "--guesses", "100", "--correct",
                             "50", "--delta", "1e-5"});
    QCOMPARE(parseJson(none.out)["epsilon_lower_bound"].toDouble(), 0.0);
  }

  void boundBadInputNamesTheFlag_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("flag");
    const QStringList base{"audit-bound", "--canaries", "100",     "--guesses", "10",
                           "--correct",   "5",          "--delta", "1e-5"};
    auto with = [&](const QString& flag, const QString& value) {
      QStringList a = base;
      a[a.indexOf("--" + flag) + 1] = value;
      return a;
    };
    QTest::newRow("correct > guesses") << with("correct", "11") << "--correct";
    QTest::newRow("guesses > canaries") << with("guesses", "101") << "--guesses";
    QTest::newRow("canaries 0") << with("canaries", "0") << "--canaries";
    QTest::newRow("delta 2") << with("delta", "2") << "--delta";
    QTest::newRow("confidence 1") << (base + QStringList{"--confidence", "1"}) << "--confidence";
    QTest::newRow("not a number") << with("guesses", "ten") << "--guesses";
  }
  void boundBadInputNamesTheFlag() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, flag);
    const Run run = runCli(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(flag), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
  }

  void auditsASmallRun() {
    QTemporaryDir dir;
    const QString out = dir.filePath("audit.json");
#ifdef EPSILON_HAVE_PLOT
    const QString plot = dir.filePath("audit.png");
    const QStringList outputs{"--out", out, "--plot", plot};
#else  // built without the GUI: no epsilonlab-plot to draw the chart
    const QStringList outputs{"--out", out};
#endif
    const Run run = runCli(smallAudit() + outputs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out.count(QLatin1Char('\n')), 1);
    const QJsonObject json = parseJson(run.out);
    qInfo("%s", qPrintable(run.out));
    QVERIFY(json["auc"].toDouble() >= 0.0 && json["auc"].toDouble() <= 1.0);
    QVERIFY(json["tpr_at_fpr"].toObject().contains("0.01") &&
            json["tpr_at_fpr"].toObject().contains("0.001"));
    QCOMPARE(json["canaries"].toInt(), 200);
    QCOMPARE(json["guesses"].toInt(), 2 * json["k_plus"].toInt());
    QVERIFY(json["correct"].toInt() <= json["guesses"].toInt());
    const QJsonObject upper = json["epsilon_upper_bound"].toObject();
    QCOMPARE(upper["delta"].toDouble(), 1e-5);
    QCOMPARE(upper["accountant"].toString(), QStringLiteral("rdp"));
    QCOMPARE(upper["sampling"].toString(), QStringLiteral("Poisson sampling"));
    QVERIFY(upper["epsilon"].toDouble() > 0.0);
    QVERIFY(json["epsilon_lower_bound"].toDouble() <= upper["epsilon"].toDouble());
    QVERIFY(json["test_accuracy"].toDouble() > 0.2);
    QCOMPARE(json["train_size"].toInt(), 400 + json["canaries_included"].toInt());
    // The bound is reproducible from the printed counts.
    const Run check = runCli(
        {"audit-bound", "--canaries", "200", "--guesses", QString::number(json["guesses"].toInt()),
         "--correct", QString::number(json["correct"].toInt()), "--delta", "1e-5", "--confidence",
         QString::number(1.0 - 0.05 / json["guess_grid"].toArray().size(), 'g', 17)});
    QVERIFY(std::abs(parseJson(check.out)["epsilon_lower_bound"].toDouble() -
                     json["epsilon_lower_bound"].toDouble()) < 1e-9);

    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject full = parseJson(file.readAll());
    QCOMPARE(full["epsilon_lower_bound"], json["epsilon_lower_bound"]);
    QVERIFY(full["roc"].toObject()["fpr"].toArray().size() > 10);
    QCOMPARE(full["run"].toObject()["format"].toString(), QStringLiteral("epsilonlab-run"));
#ifdef EPSILON_HAVE_PLOT
    const QImage image(plot);
    if (qEnvironmentVariableIsSet("EPSILON_KEEP_AUDIT_PLOT"))
      image.save(qEnvironmentVariable("EPSILON_KEEP_AUDIT_PLOT"));
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 1000);
#endif
  }

  // --attack lira: both attacks' AUC and TPR at 1% and 0.1% FPR on the same examples, the
  // LiRA ROC in --out. Two shadows and two epochs keep it quick.
  void liraBesideTheLossThreshold() {
    QTemporaryDir dir;
    const QString out = dir.filePath("audit.json");
    QStringList arguments = smallAudit();
    arguments[arguments.indexOf("--epochs") + 1] = "2";
    const QStringList liraFlags{"--attack", "lira",    "--shadows",    "2",
                                "--lira",   "offline", "--shadow-dir", dir.filePath("shadows")};
    QStringList first = arguments + liraFlags + QStringList{"--out", out};
#ifdef EPSILON_HAVE_PLOT
    const QString chart = dir.filePath("audit.png");
    first << "--plot" << chart;
#endif
    const Run run = runCli(first);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject json = parseJson(run.out);
    QVERIFY(json.contains("auc"));  // the loss threshold, as before
    const QJsonObject lira = json["lira"].toObject();
    for (const char* key : {"auc", "advantage", "shadow_out_accuracy"}) {
      const double v = lira[key].toDouble(-1);
      QVERIFY2(v >= 0.0 && v <= 1.0, key);
    }
    for (const char* rate : {"0.01", "0.001"}) {
      const double tpr = lira["tpr_at_fpr"].toObject()[rate].toDouble(-1);
      QVERIFY(tpr >= 0.0 && tpr <= 1.0);
      QVERIFY(json["tpr_at_fpr"].toObject().contains(rate));
    }
    QCOMPARE(lira["shadows"].toInt(), 2);
    QCOMPARE(lira["test"].toString(), QString("offline"));
    QCOMPARE(lira["variance"].toString(), QString("global"));
    QCOMPARE(lira["members"].toInt(), json["members"].toInt());  // the same candidates
    QCOMPARE(lira["non_members"].toInt(), json["non_members"].toInt());
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject roc = parseJson(file.readAll())["lira_roc"].toObject();
    const QJsonArray fpr = roc["fpr"].toArray();
    QVERIFY(fpr.size() > 2);
    QCOMPARE(roc["tpr"].toArray().size(), fpr.size());
    QCOMPARE(fpr.first().toDouble(), 0.0);
    QCOMPARE(fpr.last().toDouble(), 1.0);

#ifdef EPSILON_HAVE_PLOT
    QVERIFY(!QImage(chart).isNull());  // both attacks' ROC over the bound
#endif
    // The shadows were kept: the same audit again reuses them and gives the same numbers.
    QCOMPARE(lira["reused_shadows"].toInt(), 0);
    const Run again = runCli(arguments + liraFlags);
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    const QJsonObject second = parseJson(again.out)["lira"].toObject();
    QCOMPARE(second["reused_shadows"].toInt(), 2);
    QVERIFY(second["auc"].toDouble() == lira["auc"].toDouble());  // bit for bit
    QCOMPARE(second["tpr_at_fpr"].toObject(), lira["tpr_at_fpr"].toObject());
  }

  void auditBadInputNamesTheFlag_data() {
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("flag");
    QTest::newRow("kind") << QStringList{"--canary-kind", "noise"} << "--canary-kind";
    QTest::newRow("too many canaries") << QStringList{"--canaries", "5000"} << "--canaries";
    QTest::newRow("one canary") << QStringList{"--canaries", "1"} << "--canaries";
    QTest::newRow("confidence") << QStringList{"--confidence", "1.5"} << "--confidence";
    QTest::newRow("plot suffix") << QStringList{"--plot", "chart.txt"} << "--plot";
    QTest::newRow("noise") << QStringList{"--noise-multiplier", "-1"} << "--noise-multiplier";
    QTest::newRow("attack") << QStringList{"--attack", "guess"} << "--attack";
    QTest::newRow("no shadows") << QStringList{"--attack", "lira", "--shadows", "0"} << "--shadows";
    QTest::newRow("one shadow") << QStringList{"--attack", "lira", "--shadows", "1"} << "--shadows";
    QTest::newRow("too many shadows")
        << QStringList{"--attack", "lira", "--shadows", "100000"} << "--shadows";
    QTest::newRow("shadows without lira") << QStringList{"--shadows", "4"} << "--shadows";
    QTest::newRow("shadow dir without lira")
        << QStringList{"--shadow-dir", "kept"} << "--shadow-dir";
    QTest::newRow("lira test") << QStringList{"--attack", "lira", "--lira", "sideways"} << "--lira";
  }
  void auditBadInputNamesTheFlag() {
    QFETCH(QStringList, extra);
    QFETCH(QString, flag);
    const Run run = runCli(smallAudit() + extra);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(flag), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
  }
};

QTEST_APPLESS_MAIN(TestCliAudit)
#include "test_cli_audit.moc"
