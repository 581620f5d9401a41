// LiRA's kept shadows (base/io/lira_shadow_file.h): φ round-trips bit for bit through the file,
// the name changes with the configuration, the data and the members, and a damaged file is
// refused with an error that names the key.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/lira_shadow_file.h"
#include "core/common/errors.h"

using namespace epsilon;

namespace {

audit::ShadowSet smallSet() {
  audit::ShadowSet set;
  set.in = audit::shadowMemberships(6, 2, 3);
  set.phi = {{0.1, -1e-300, 40.0, 1.0 / 3.0, -7.25, 2.5e10},
             {-0.0, 3.141592653589793, -40.0, 1e-17, 5.0, -2.0 / 7.0}};
  set.outAccuracy = {0.5, 2.0 / 3.0};
  return set;
}

data::Dataset tinyData(float value) {
  data::Dataset d;
  d.classNames = {"a", "b"};
  d.train.features = data::FeatureMatrix::Constant(4, 2, value);
  d.train.labels = {0, 1, 0, 1};
  d.test = d.train;
  return d;
}

}  // namespace

class TestLiraShadowFile : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void roundTripsExactly() {
    QTemporaryDir dir;
    const QString path = dir.filePath("kept.json");
    const audit::ShadowSet set = smallSet();
    ui::writeShadowSet(path, set);
    const audit::ShadowSet back = ui::readShadowSet(path);
    QVERIFY(back.in == set.in);
    QVERIFY(back.phi == set.phi);
    QVERIFY(back.outAccuracy == set.outAccuracy);
  }

  void nameFollowsWhatShadowsDependOn() {
    train::ExperimentConfig config;
    const QString name = ui::liraShadowFileName(config, tinyData(1.0f), 4);
    QVERIFY(name.startsWith("lira-shadows-") && name.endsWith(".json"));
    QCOMPARE(ui::liraShadowFileName(config, tinyData(1.0f), 4), name);
    QVERIFY(ui::liraShadowFileName(config, tinyData(2.0f), 4) != name);
    QVERIFY(ui::liraShadowFileName(config, tinyData(1.0f), 3) != name);
    config.training.seed = 99;
    QVERIFY(ui::liraShadowFileName(config, tinyData(1.0f), 4) != name);
  }

  void damagedFilesAreRefused_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("named");
    QTest::newRow("format") << "format"
                            << "\"other\""
                            << "format";
    QTest::newRow("version") << "version"
                             << "2"
                             << "version";
    QTest::newRow("candidates") << "candidates"
                                << "7"
                                << "shadows[0]";
    QTest::newRow("stray key") << "extra"
                               << "1"
                               << "extra";
  }
  void damagedFilesAreRefused() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, named);
    QJsonObject json = ui::shadowSetToJson(smallSet());
    json.insert(key, QJsonDocument::fromJson(("[" + value + "]").toUtf8()).array().first());
    try {
      ui::shadowSetFromJson(json);
      QFAIL("accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromStdString(e.what()).contains(named), e.what());
    }
  }

  void badValuesInsideAShadowAreNamed() {
    QJsonObject json = ui::shadowSetToJson(smallSet());
    QJsonArray shadows = json["shadows"].toArray();
    QJsonObject first = shadows[1].toObject();
    first["in"] = "01x010";
    shadows[1] = first;
    json["shadows"] = shadows;
    try {
      ui::shadowSetFromJson(json);
      QFAIL("accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromStdString(e.what()).contains("shadows[1].in"), e.what());
    }
    QTemporaryDir dir;
    const QString path = dir.filePath("cut.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": \"epsilonlab-lira-sha");
    file.close();
    QVERIFY_THROWS_EXCEPTION(ConfigError, ui::readShadowSet(path));
  }
};

QTEST_APPLESS_MAIN(TestLiraShadowFile)
#include "test_lira_shadow_file.moc"
