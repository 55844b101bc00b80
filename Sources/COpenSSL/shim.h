#pragma once
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/cms.h>
#include <openssl/pkcs12.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/provider.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/hmac.h>

static inline long passwright_BIO_get_mem_data(BIO *bio, char **out) { return BIO_get_mem_data(bio, out); }
static inline void passwright_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline int passwright_sk_X509_num(const STACK_OF(X509) *s) { return sk_X509_num(s); }
static inline X509 *passwright_sk_X509_value(const STACK_OF(X509) *s, int i) { return sk_X509_value(s, i); }
static inline STACK_OF(X509) *passwright_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int passwright_sk_X509_push(STACK_OF(X509) *s, X509 *x) { return sk_X509_push(s, x); }
static inline void passwright_sk_X509_free(STACK_OF(X509) *s) { sk_X509_free(s); }
static inline void passwright_sk_X509_pop_free(STACK_OF(X509) *s) { sk_X509_pop_free(s, X509_free); }
static inline int passwright_sk_CMS_SignerInfo_num(STACK_OF(CMS_SignerInfo) *s) { return sk_CMS_SignerInfo_num(s); }
static inline CMS_SignerInfo *passwright_sk_CMS_SignerInfo_value(STACK_OF(CMS_SignerInfo) *s, int i) { return sk_CMS_SignerInfo_value(s, i); }
/* RFC 2253 name printing, keeping UTF-8 readable (no \XX escapes for non-ASCII). */
static inline unsigned long passwright_XN_FLAG_RFC2253_UTF8(void) { return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB; }

/* TLS (passwright doctor's handshake probe): these are macros over SSL_CTX_ctrl / SSL_ctrl. */
#include <openssl/ssl.h>
static inline int passwright_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) { return (int)SSL_CTX_set_min_proto_version(ctx, version); }
static inline int passwright_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) { return (int)SSL_CTX_set_max_proto_version(ctx, version); }
static inline int passwright_SSL_set_tlsext_host_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }
static inline STACK_OF(X509) *passwright_SSL_get_peer_cert_chain(const SSL *ssl) { return SSL_get_peer_cert_chain(ssl); }
