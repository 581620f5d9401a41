// The sweep map's logic (base/io/sweep_map.h), by small hand-checked cases: which parameters a
// set of runs swept, the grid they make (order, log axes, cell edges), the ε levels, the best
// run under a level, and the iso-ε lines of marching squares.
#include <QTest>
#include <cmath>
#include <limits>

#include "base/io/sweep_map.h"
#include "tests/base/io/sweep_map_runs.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

RunRecord finishedRun(int id, double sigma, double clip, double accuracy, double epsilon) {
  RunRecord run = test::finishedSweepRun(sigma, clip, accuracy, epsilon);
  run.id = id;
  return run;
}

// A hand-made 2×2 map with centres at 0 and 1 on both axes and the given ε (cell i + 2j).
SweepMap squareMap(double e00, double e10, double e01, double e11) {
  SweepMap map;
  for (const char* word : {"a", "b"}) {
    SweepMapAxis axis;
    axis.word = QString::fromLatin1(word);
    axis.labels = {QStringLiteral("0"), QStringLiteral("1")};
    axis.centres = {0, 1};
    axis.edges = {-0.5, 0.5, 1.5};
    map.axes.push_back(axis);
  }
  map.runIds = {1, 2, 3, 4};
  map.accuracy = {0.5, 0.6, 0.7, 0.8};
  map.epsilon = {e00, e10, e01, e11};
  return map;
}

bool near(const QPointF& a, const QPointF& b) {
  return std::abs(a.x() - b.x()) < 1e-12 && std::abs(a.y() - b.y()) < 1e-12;
}

}  // namespace

class TestSweepMap : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void twoByTwoSweepGivesATwoByTwoGrid() {
    // Given out of order: the map sorts each axis by value.
    const std::vector<RunRecord> runs{
        finishedRun(1, 8.0, 4, 0.70, 0.3), finishedRun(2, 0.5, 4, 0.90, 9.0),
        finishedRun(3, 8.0, 1, 0.60, 0.2), finishedRun(4, 0.5, 1, 0.85, 8.0)};
    const QStringList swept = sweptParameters(runs);
    QCOMPARE(swept.size(), 2);
    QVERIFY(swept.contains(QStringLiteral("privacy.noise_multiplier")));
    QVERIFY(swept.contains(QStringLiteral("privacy.clip_norm")));
    const SweepMap map = buildSweepMap(runs);
    QVERIFY2(map.valid(), qPrintable(map.problem));
    QCOMPARE(map.nx(), 2);
    QCOMPARE(map.ny(), 2);
    const int sigmaAxis = map.axes[0].word == QLatin1String("noise_multiplier") ? 0 : 1;
    const SweepMapAxis& sigma = map.axes[static_cast<std::size_t>(sigmaAxis)];
    const SweepMapAxis& clip = map.axes[static_cast<std::size_t>(1 - sigmaAxis)];
    QCOMPARE(sigma.labels, QStringList({QStringLiteral("0.5"), QStringLiteral("8")}));
    QVERIFY(sigma.log);  // 8 / 0.5 = 16 ≥ 10
    QCOMPARE(sigma.centres[1], std::log10(8.0));
    QVERIFY(!clip.log);                                           // 4 / 1 < 10
    QCOMPARE(clip.edges, std::vector<double>({-0.5, 2.5, 5.5}));  // centres 1 and 4
    // σ 0.5, C 4 (run 2) sits at the low σ and the high C.
    const int i = sigmaAxis == 0 ? 0 : 1, j = sigmaAxis == 0 ? 1 : 0;
    QCOMPARE(map.runIds[static_cast<std::size_t>(map.cell(i, j))], 2);
    QCOMPARE(map.accuracy[static_cast<std::size_t>(map.cell(i, j))], 0.90);
    QCOMPARE(map.epsilon[static_cast<std::size_t>(map.cell(i, j))], 9.0);
    QCOMPARE(sweepMapCaption(map), QStringLiteral("δ = 1e-5 · RDP · Poisson sampling"));
  }

  void unfinishedRunsHaveNoValues() {
    std::vector<RunRecord> runs{finishedRun(1, 1, 1, 0.8, 2), finishedRun(2, 2, 1, 0.7, 1)};
    runs[1].status = RunStatus::Running;
    const SweepMap map = buildSweepMap(runs);
    QVERIFY(map.valid());
    QCOMPARE(map.ny(), 1);
    QCOMPARE(map.runIds[1], 2);
    QVERIFY(std::isnan(map.accuracy[1]));
    QVERIFY(std::isnan(map.epsilon[1]));
  }

  void refusesWhatIsNotASweep() {
    QVERIFY(!buildSweepMap({finishedRun(1, 1, 1, 0.8, 2)}).valid());
    QVERIFY(!buildSweepMap({finishedRun(1, 1, 1, 0.8, 2), finishedRun(2, 1, 1, 0.7, 2)}).valid());
    RunRecord third = finishedRun(3, 2, 2, 0.7, 1);
    third.config.optimizer.learningRate = 0.5;
    const SweepMap map = buildSweepMap({finishedRun(1, 1, 1, 0.8, 2), third});
    QVERIFY(!map.valid());
    QVERIFY2(map.problem.contains(QStringLiteral("differ in 3 settings")), qPrintable(map.problem));
  }

  void levelsAreRoundNumbersInsideTheRange() {
    SweepMap map = squareMap(0.8, 1.5, 3, 7);
    QCOMPARE(epsilonLevels(map, 5), std::vector<double>({1, 2, 5}));
    QCOMPARE(epsilonLevels(map, 2), std::vector<double>({1, 5}));
    map.epsilon = {2.1, 2.2, 2.3, std::numeric_limits<double>::infinity()};
    QVERIFY(epsilonLevels(map).empty());  // nothing round between 2.1 and 2.3
  }

  void bestCellIsTheMostAccurateUnderTheLevel() {
    SweepMap map = squareMap(0.8, 1.5, 3, 7);  // accuracies 0.5, 0.6, 0.7, 0.8
    QCOMPARE(bestCellUnder(map, 1.0), 0);
    QCOMPARE(bestCellUnder(map, 2.0), 1);
    QCOMPARE(bestCellUnder(map, 5.0), 2);
    QCOMPARE(bestCellUnder(map, 0.5), -1);
    map.accuracy[1] = std::numeric_limits<double>::quiet_NaN();  // unfinished: never best
    QCOMPARE(bestCellUnder(map, 2.0), 0);
    map.accuracy = {0.9, 0.9, 0.1, 0.1};  // a tie: the lower ε
    QCOMPARE(bestCellUnder(map, 2.0), 0);
  }

  void isoLineCrossesWhereEpsilonInterpolatesToTheLevel() {
    // ε 1 on the left, 3 on the right: ε = 2 runs straight up the middle.
    auto segments = isoEpsilonSegments(squareMap(1, 3, 1, 3), 2.0);
    QCOMPARE(segments.size(), std::size_t(1));
    const QPointF a = segments[0].from, b = segments[0].to;
    QVERIFY((near(a, {0.5, 0}) && near(b, {0.5, 1})) || (near(a, {0.5, 1}) && near(b, {0.5, 0})));
    // ε = 1.5 a quarter of the way.
    segments = isoEpsilonSegments(squareMap(1, 3, 1, 3), 1.5);
    QCOMPARE(segments.size(), std::size_t(1));
    QCOMPARE(segments[0].from.x(), 0.25);
    QCOMPARE(segments[0].to.x(), 0.25);
    // A saddle gives two pieces; an infinite ε is crossed at the middle; a missing one, nowhere.
    QCOMPARE(isoEpsilonSegments(squareMap(3, 1, 1, 3), 2.0).size(), std::size_t(2));
    const double inf = std::numeric_limits<double>::infinity();
    segments = isoEpsilonSegments(squareMap(1, inf, 1, inf), 2.0);
    QCOMPARE(segments.size(), std::size_t(1));
    QCOMPARE(segments[0].from.x(), 0.5);
    QVERIFY(isoEpsilonSegments(squareMap(1, std::nan(""), 1, 3), 2.0).empty());
    QVERIFY(isoEpsilonSegments(squareMap(1, 1, 1, 1), 2.0).empty());  // all below
  }
};

QTEST_APPLESS_MAIN(TestSweepMap)
#include "test_sweep_map.moc"
