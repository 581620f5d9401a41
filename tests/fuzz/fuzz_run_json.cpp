// Fuzz target: one run of a session on its own (base/io/session_file.h runFromJson: status,
// colour, experiment, evaluation points with null/"inf" numbers, lot losses), so the
// fuzzer spends its time inside a run rather than on the session's envelope. An accepted run
// must write and read back to the same JSON.
#include "base/io/session_file.h"
#include "fuzz_json_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  const auto json = fuzz::jsonObjectOf(data, size);
  if (!json) return 0;
  return fuzz::readThenRoundTrip(
      [&] { return ui::runFromJson(*json, QStringLiteral("runs[0]")); },
      [](const ui::RunRecord& run) {
        const QJsonObject written = ui::runToJson(run);
        fuzz::requireSameJson(
            written, ui::runToJson(ui::runFromJson(written, QStringLiteral("runs[0]"))), "run");
      });
}
