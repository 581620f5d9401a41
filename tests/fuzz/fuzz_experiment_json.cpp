// Fuzz target: the experiment file reader (base/io/experiment_json.h, "epsilonlab-experiment"),
// over the defaults as readExperimentFile reads it, then validate() as every command does.
// An accepted experiment must write and read back to the same JSON.
#include "base/io/experiment_json.h"
#include "fuzz_json_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  const auto json = fuzz::jsonObjectOf(data, size);
  if (!json) return 0;
  return fuzz::readThenRoundTrip(
      [&] { return ui::experimentFromJson(*json); },
      [](const train::ExperimentConfig& config) {
        const QJsonObject written = ui::experimentToJson(config);
        fuzz::requireSameJson(written, ui::experimentToJson(ui::experimentFromJson(written)),
                              "experiment");
        fuzz::expectCleanRejection([&] { config.validate(); });
      });
}
