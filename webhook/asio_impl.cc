// Asio, Asio-SSL and Beast compiled once for the whole tree (as Beast's own test/lib_*.cpp):
// every other file includes only their headers, with BOOST_ASIO_SEPARATE_COMPILATION and
// BOOST_BEAST_SEPARATE_COMPILATION set by the draguard_asio library.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
