// The flags of `epsilonlab-cli sweep` and its --help text.
#pragma once

class QCommandLineParser;

namespace epsilon::cli {

void addSweepOptions(QCommandLineParser& parser);

}  // namespace epsilon::cli
