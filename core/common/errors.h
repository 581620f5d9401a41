// Typed exceptions thrown by the engine. Each message names the file, field or offset,
// what was expected and what was found, so a user can act on it without a debugger.
#pragma once

#include <stdexcept>
#include <string>

namespace epsilon {

// Base of every engine error; the GUI shows what(), the CLI prints it and exits with 2.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A data file or data set name that cannot be read: malformed, truncated, hostile, missing.
class DataError : public Error {
 public:
  using Error::Error;
};

// An experiment configuration field with an impossible value or an unknown key.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// A privacy computation that cannot be done as asked: an unsupported event, an invalid
// parameter, a target budget that no noise level reaches.
class PrivacyError : public Error {
 public:
  using Error::Error;
};

// Work stopped because its caller set the cancel flag it was given (a "Fix ε" calibration
// overtaken by a newer one): nothing is wrong, and nobody is waiting for the result.
class Cancelled : public Error {
 public:
  using Error::Error;
};

// A network that cannot be built for the given input shape, or a shape mismatch.
class ModelError : public Error {
 public:
  using Error::Error;
};

}  // namespace epsilon
