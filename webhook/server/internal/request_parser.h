// RequestParser: Beast's HTTP/1.x request parser (basic_parser: the syntax, the header and
// body limits, Content-Length, chunked framing, Connection) keeping only what the server
// reads: the method, the target, the version, Content-Type, Transfer-Encoding, and the body.
// Why not http::request_parser: it stores every header field in a basic_fields (an
// allocation and a tree insertion per field, their frees with the parser), and the server
// reads three of them.
// Internal: includes Beast; only http_session.h includes it.
#ifndef DRAGUARD_WEBHOOK_SERVER_INTERNAL_REQUEST_PARSER_H_
#define DRAGUARD_WEBHOOK_SERVER_INTERNAL_REQUEST_PARSER_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/optional.hpp>

namespace draguard::webhook::server_internal {

// What the server reads of one request. Owned by the session and reused by each request's
// parser, so that the strings keep their storage from one request to the next.
struct RequestParts {
  std::string method;   // as sent: "POST", "GET", ...
  std::string target;   // path and query
  unsigned version = 11;  // 10 or 11
  // The first Content-Type field's value; empty when there is none.
  std::string content_type;
  bool has_content_type = false;
  // How many Transfer-Encoding fields came, and the last one's value.
  unsigned transfer_encoding_count = 0;
  std::string transfer_encoding;
  std::string body;

  // Empties every part, keeping the strings' storage.
  void Clear() {
    method.clear();
    target.clear();
    version = 11;
    content_type.clear();
    has_content_type = false;
    transfer_encoding_count = 0;
    transfer_encoding.clear();
    body.clear();
  }
};

// Fills a RequestParts (cleared first) as basic_parser reads a request. The framing and the
// limits are basic_parser's (header_limit, body_limit, eager, put, keep_alive(),
// content_length()); this class only keeps the parts.
class RequestParser : public boost::beast::http::basic_parser<true> {
 public:
  explicit RequestParser(RequestParts& parts) : parts_(parts) { parts_.Clear(); }

  RequestParts& parts() { return parts_; }
  const RequestParts& parts() const { return parts_; }

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;

  void on_request_impl(boost::beast::http::verb, string_view method, string_view target,
                       int version, error_code& ec) override {
    parts_.method.assign(method.data(), method.size());
    parts_.target.assign(target.data(), target.size());
    parts_.version = version == 10 ? 10 : 11;
    ec = {};
  }
  void on_response_impl(int, string_view, int, error_code& ec) override { ec = {}; }

  void on_field_impl(boost::beast::http::field name, string_view, string_view value,
                     error_code& ec) override {
    using boost::beast::http::field;
    if (name == field::content_type && !parts_.has_content_type) {
      parts_.content_type.assign(value.data(), value.size());
      parts_.has_content_type = true;
    } else if (name == field::transfer_encoding) {
      ++parts_.transfer_encoding_count;
      parts_.transfer_encoding.assign(value.data(), value.size());
    }
    ec = {};
  }
  void on_header_impl(error_code& ec) override { ec = {}; }

  void on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code& ec) override {
    // basic_parser has checked a declared length against the body limit before this.
    if (length) {
      parts_.body.reserve(static_cast<size_t>(
          std::min<std::uint64_t>(*length, parts_.body.max_size())));
    }
    ec = {};
  }
  size_t on_body_impl(string_view body, error_code& ec) override { return Append(body, ec); }
  void on_chunk_header_impl(std::uint64_t, string_view, error_code& ec) override { ec = {}; }
  size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code& ec) override {
    return Append(body, ec);
  }
  void on_finish_impl(error_code& ec) override { ec = {}; }

  size_t Append(string_view piece, error_code& ec) {
    if (piece.size() > parts_.body.max_size() - parts_.body.size()) {
      ec = boost::beast::http::error::buffer_overflow;
      return 0;
    }
    parts_.body.append(piece.data(), piece.size());
    ec = {};
    return piece.size();
  }

  RequestParts& parts_;
};

}  // namespace draguard::webhook::server_internal

#endif  // DRAGUARD_WEBHOOK_SERVER_INTERNAL_REQUEST_PARSER_H_
