// Fuzz target: the numeric CSV files of the UCI sets, plain or gzip'd: the digits form
// (65 fields a row) and the headered form ("rows,features,class names..."). The first input
// byte picks the parser.
#include <cstdint>

#include "core/data/csv_loader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  if (size < 1) return 0;
  const auto body = fuzz::asBytes(data + 1, size - 1);
  fuzz::expectCleanRejection([&] {
    if (data[0] % 2 == 0) {
      data::parseDigitsCsv(body, "fuzz-digits.csv");
    } else {
      data::parseHeaderedCsv(body, "fuzz-table.csv");
    }
  });
  return 0;
}
