import Foundation

/// The OpenAPI 3.1 description of every route, served at `/openapi.json` so clients can generate
/// code and tools such as schemathesis can check the server against it.
///
/// The test suite checks that the text parses and that every route the router serves is described.
enum OpenAPIDocument {
    static let json = Data(text.utf8)

    static let text = #"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "Passwright",
  "version": "0.1.0",
  "description": "Issue, update and serve Apple Wallet passes. /api/v1 is the issuer's REST API (admin bearer token); /wallet/v1 is Apple's Wallet web service protocol that devices call; /passes serves signed, expiring holder download links."
 },
 "servers": [
  {
   "url": "/"
  }
 ],
 "paths": {
  "/api/v1/passes": {
   "post": {
    "operationId": "issuePass",
    "summary": "Issue a pass from a template",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/IssueRequest"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Issued",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/IssueResponse"
        }
       }
      }
     },
     "400": {
      "description": "Malformed JSON",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "A pass with this serial number exists",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "413": {
      "description": "Body too large",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "415": {
      "description": "Not JSON",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "Invalid values, each with its JSON path",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/InvalidPassProblem"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/passes/{passTypeIdentifier}/{serialNumber}": {
   "parameters": [
    {
     "name": "passTypeIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "serialNumber",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "get": {
    "operationId": "getPass",
    "summary": "Read a pass's stored data",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/PassDetails"
        }
       }
      }
     },
     "400": {
      "description": "Bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such pass",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   },
   "patch": {
    "operationId": "updatePass",
    "summary": "Merge data into a pass, move its relevance, or void it",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/PassChange"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/UpdateResult"
        }
       }
      }
     },
     "400": {
      "description": "Malformed JSON or bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such pass",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "413": {
      "description": "Body too large",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "415": {
      "description": "Not JSON",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "Invalid values",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/InvalidPassProblem"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/passes/{passTypeIdentifier}/{serialNumber}/pkpass": {
   "parameters": [
    {
     "name": "passTypeIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "serialNumber",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "get": {
    "operationId": "getPassArchive",
    "summary": "The signed .pkpass",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "The signed pass",
      "content": {
       "application/vnd.apple.pkpass": {
        "schema": {
         "type": "string",
         "contentMediaType": "application/vnd.apple.pkpass"
        }
       }
      }
     },
     "400": {
      "description": "Bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such pass",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/templates": {
   "get": {
    "operationId": "listTemplates",
    "summary": "Templates and whether each can issue passes",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/TemplateList"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/templates/{template}/passes": {
   "parameters": [
    {
     "name": "template",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "patch": {
    "operationId": "updateTemplatePasses",
    "summary": "Apply one change to every pass of a template, in one transaction",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/PassChange"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/TemplateUpdateResult"
        }
       }
      }
     },
     "400": {
      "description": "Malformed JSON",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "413": {
      "description": "Body too large",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "415": {
      "description": "Not JSON",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "Unknown template or invalid values",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/logs": {
   "get": {
    "operationId": "deviceLogs",
    "summary": "Recent lines devices posted to /wallet/v1/log",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "parameters": [
     {
      "name": "limit",
      "in": "query",
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 1000
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/DeviceLogs"
        }
       }
      }
     },
     "400": {
      "description": "limit is not a whole number from 1 to 1000",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/passes/{passTypeIdentifier}/{serialNumber}": {
   "parameters": [
    {
     "name": "passTypeIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "serialNumber",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "expires",
     "in": "query",
     "required": true,
     "schema": {
      "type": "string"
     }
    },
    {
     "name": "signature",
     "in": "query",
     "required": true,
     "schema": {
      "type": "string"
     }
    }
   ],
   "get": {
    "operationId": "downloadPass",
    "summary": "Holder download through a signed, expiring link",
    "responses": {
     "200": {
      "description": "The signed pass",
      "content": {
       "application/vnd.apple.pkpass": {
        "schema": {
         "type": "string",
         "contentMediaType": "application/vnd.apple.pkpass"
        }
       }
      }
     },
     "400": {
      "description": "Bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "403": {
      "description": "Forged or malformed link",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such pass",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "410": {
      "description": "Expired link",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}": {
   "parameters": [
    {
     "name": "deviceLibraryIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "passTypeIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "serialNumber",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "post": {
    "operationId": "registerDevice",
    "summary": "Register a device for a pass's updates",
    "security": [
     {
      "applePass": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/PushToken"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "Already registered (push token updated)"
     },
     "201": {
      "description": "Registered"
     },
     "400": {
      "description": "Malformed body or path",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Wrong token or unknown pass",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "413": {
      "description": "Body too large",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   },
   "delete": {
    "operationId": "unregisterDevice",
    "summary": "Unregister a device",
    "security": [
     {
      "applePass": []
     }
    ],
    "responses": {
     "200": {
      "description": "Unregistered"
     },
     "400": {
      "description": "Bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Wrong token or unknown pass",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}": {
   "parameters": [
    {
     "name": "deviceLibraryIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "passTypeIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "get": {
    "operationId": "updatedSerials",
    "summary": "Serial numbers of the device's passes updated since a tag",
    "parameters": [
     {
      "name": "passesUpdatedSince",
      "in": "query",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/SerialNumbers"
        }
       }
      }
     },
     "204": {
      "description": "Nothing updated"
     },
     "400": {
      "description": "Bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/wallet/v1/passes/{passTypeIdentifier}/{serialNumber}": {
   "parameters": [
    {
     "name": "passTypeIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "serialNumber",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "get": {
    "operationId": "latestPass",
    "summary": "The latest version of a pass",
    "security": [
     {
      "applePass": []
     }
    ],
    "parameters": [
     {
      "name": "If-Modified-Since",
      "in": "header",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "The signed pass",
      "content": {
       "application/vnd.apple.pkpass": {
        "schema": {
         "type": "string",
         "contentMediaType": "application/vnd.apple.pkpass"
        }
       }
      }
     },
     "304": {
      "description": "Not modified"
     },
     "400": {
      "description": "Bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Wrong token or unknown pass",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/wallet/v1/passes/{passTypeIdentifier}/{serialNumber}/personalize": {
   "parameters": [
    {
     "name": "passTypeIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "serialNumber",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "post": {
    "operationId": "personalizePass",
    "summary": "Personalize a pass; answers the signed personalization token",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/Personalization"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "Detached CMS signature of the token",
      "content": {
       "application/octet-stream": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "400": {
      "description": "Malformed body",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such pass, or its template offers no personalization",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "413": {
      "description": "Body too large",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "Invalid values",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "Already personalized",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/wallet/v1/log": {
   "post": {
    "operationId": "deviceLog",
    "summary": "Log lines from devices",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/LogEntries"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "Stored"
     },
     "400": {
      "description": "Malformed body",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "413": {
      "description": "Body too large",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/healthz": {
   "get": {
    "operationId": "health",
    "summary": "Liveness",
    "responses": {
     "200": {
      "description": "Alive",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     }
    }
   }
  },
  "/readyz": {
   "get": {
    "operationId": "ready",
    "summary": "Readiness: the database answers",
    "responses": {
     "200": {
      "description": "Ready (status ready), or serving with pushes stopped for some identities (status degraded)",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "status",
          "database",
          "stoppedPushIdentities"
         ],
         "properties": {
          "status": {
           "type": "string",
           "enum": [
            "ready",
            "degraded"
           ]
          },
          "database": {
           "type": "string"
          },
          "stoppedPushIdentities": {
           "type": "object",
           "additionalProperties": {
            "type": "string"
           }
          }
         }
        }
       }
      }
     },
     "503": {
      "description": "Not ready",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/metrics": {
   "get": {
    "operationId": "metrics",
    "summary": "Prometheus metrics",
    "responses": {
     "200": {
      "description": "Prometheus text",
      "content": {
       "text/plain": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/openapi.json": {
   "get": {
    "operationId": "openapi",
    "summary": "This document",
    "responses": {
     "200": {
      "description": "OpenAPI 3.1",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/passes/{passTypeIdentifier}/{serialNumber}/push": {
   "parameters": [
    {
     "name": "passTypeIdentifier",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    },
    {
     "name": "serialNumber",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "post": {
    "operationId": "forcePush",
    "summary": "Queue a push to every device registered for the pass",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "responses": {
     "202": {
      "description": "Queued",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "pushesQueued"
         ],
         "properties": {
          "pushesQueued": {
           "type": "integer"
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such pass",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/push/stats": {
   "get": {
    "operationId": "pushStats",
    "summary": "The push outbox: queued, in flight, oldest pending, sent, failures by reason, stopped identities",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "Push statistics",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/PushStats"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/templates/{template}/lint": {
   "parameters": [
    {
     "name": "template",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string",
      "maxLength": 256
     }
    }
   ],
   "post": {
    "operationId": "lintTemplate",
    "summary": "Lint a template as it is on disk: errors Wallet would refuse, design warnings, advice",
    "security": [
     {
      "adminBearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "Findings, most severe first (header X-Passwright-Lint-Errors counts the errors)",
      "content": {
       "application/json": {
        "schema": {
         "type": "array",
         "items": {
          "$ref": "#/components/schemas/Finding"
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad path parameter",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong admin token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such template",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  }
 },
 "components": {
  "securitySchemes": {
   "adminBearer": {
    "type": "http",
    "scheme": "bearer",
    "description": "PASSWRIGHT_ADMIN_TOKEN"
   },
   "applePass": {
    "type": "apiKey",
    "in": "header",
    "name": "Authorization",
    "description": "ApplePass <authenticationToken>"
   }
  },
  "schemas": {
   "Problem": {
    "type": "object",
    "required": [
     "type",
     "title",
     "status"
    ],
    "properties": {
     "type": {
      "type": "string"
     },
     "title": {
      "type": "string"
     },
     "status": {
      "type": "integer"
     },
     "detail": {
      "type": "string"
     }
    }
   },
   "InvalidPassProblem": {
    "allOf": [
     {
      "$ref": "#/components/schemas/Problem"
     },
     {
      "type": "object",
      "properties": {
       "errors": {
        "type": "array",
        "items": {
         "type": "object",
         "required": [
          "path",
          "message"
         ],
         "properties": {
          "path": {
           "type": "string"
          },
          "rule": {
           "type": "string"
          },
          "message": {
           "type": "string"
          }
         }
        }
       }
      }
     }
    ]
   },
   "W3CDate": {
    "type": "string",
    "description": "ISO 8601 date and time with a zone, e.g. 2027-04-15T20:00:00+02:00"
   },
   "Location": {
    "type": "object",
    "required": [
     "latitude",
     "longitude"
    ],
    "properties": {
     "latitude": {
      "type": "number",
      "minimum": -90,
      "maximum": 90
     },
     "longitude": {
      "type": "number",
      "minimum": -180,
      "maximum": 180
     },
     "altitude": {
      "type": "number"
     },
     "relevantText": {
      "type": "string"
     }
    }
   },
   "IssueRequest": {
    "type": "object",
    "required": [
     "template"
    ],
    "additionalProperties": false,
    "properties": {
     "template": {
      "type": "string"
     },
     "serialNumber": {
      "type": "string",
      "minLength": 1,
      "maxLength": 256
     },
     "data": {
      "type": "object",
      "description": "The record that fills the template's placeholders"
     },
     "locations": {
      "type": "array",
      "maxItems": 10,
      "items": {
       "$ref": "#/components/schemas/Location"
      }
     },
     "beacons": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [
        "proximityUUID"
       ],
       "properties": {
        "proximityUUID": {
         "type": "string",
         "format": "uuid"
        },
        "major": {
         "type": "integer",
         "minimum": 0,
         "maximum": 65535
        },
        "minor": {
         "type": "integer",
         "minimum": 0,
         "maximum": 65535
        },
        "relevantText": {
         "type": "string"
        }
       }
      }
     },
     "maxDistance": {
      "type": "number",
      "minimum": 0
     },
     "relevantDate": {
      "$ref": "#/components/schemas/W3CDate"
     },
     "relevantDates": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "startDate": {
         "$ref": "#/components/schemas/W3CDate"
        },
        "endDate": {
         "$ref": "#/components/schemas/W3CDate"
        },
        "date": {
         "$ref": "#/components/schemas/W3CDate"
        }
       }
      }
     },
     "expirationDate": {
      "$ref": "#/components/schemas/W3CDate"
     }
    }
   },
   "IssueResponse": {
    "type": "object",
    "required": [
     "passTypeIdentifier",
     "serialNumber",
     "template",
     "updateTag",
     "downloadURL"
    ],
    "properties": {
     "passTypeIdentifier": {
      "type": "string"
     },
     "serialNumber": {
      "type": "string"
     },
     "template": {
      "type": "string"
     },
     "updateTag": {
      "type": "string"
     },
     "downloadURL": {
      "type": "string"
     }
    }
   },
   "PassDetails": {
    "type": "object",
    "required": [
     "passTypeIdentifier",
     "serialNumber",
     "template",
     "data",
     "overrides",
     "voided",
     "updateTag",
     "lastModified",
     "registeredDevices",
     "downloadURL"
    ],
    "properties": {
     "passTypeIdentifier": {
      "type": "string"
     },
     "serialNumber": {
      "type": "string"
     },
     "template": {
      "type": "string"
     },
     "data": {
      "type": "object"
     },
     "overrides": {
      "type": "object"
     },
     "voided": {
      "type": "boolean"
     },
     "updateTag": {
      "type": "string"
     },
     "lastModified": {
      "type": "string"
     },
     "registeredDevices": {
      "type": "integer"
     },
     "downloadURL": {
      "type": "string"
     }
    }
   },
   "PassChange": {
    "type": "object",
    "additionalProperties": false,
    "minProperties": 1,
    "properties": {
     "data": {
      "type": "object",
      "description": "JSON Merge Patch (RFC 7386) of the record"
     },
     "voided": {
      "type": "boolean"
     },
     "locations": {
      "type": "array",
      "maxItems": 10,
      "items": {
       "$ref": "#/components/schemas/Location"
      }
     },
     "beacons": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [
        "proximityUUID"
       ],
       "properties": {
        "proximityUUID": {
         "type": "string",
         "format": "uuid"
        },
        "major": {
         "type": "integer",
         "minimum": 0,
         "maximum": 65535
        },
        "minor": {
         "type": "integer",
         "minimum": 0,
         "maximum": 65535
        },
        "relevantText": {
         "type": "string"
        }
       }
      }
     },
     "maxDistance": {
      "type": "number",
      "minimum": 0
     },
     "relevantDate": {
      "$ref": "#/components/schemas/W3CDate"
     },
     "relevantDates": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "startDate": {
         "$ref": "#/components/schemas/W3CDate"
        },
        "endDate": {
         "$ref": "#/components/schemas/W3CDate"
        },
        "date": {
         "$ref": "#/components/schemas/W3CDate"
        }
       }
      }
     },
     "expirationDate": {
      "$ref": "#/components/schemas/W3CDate"
     }
    }
   },
   "UpdateResult": {
    "type": "object",
    "required": [
     "serialNumber",
     "changed",
     "updateTag",
     "pushesQueued"
    ],
    "properties": {
     "serialNumber": {
      "type": "string"
     },
     "changed": {
      "type": "boolean"
     },
     "updateTag": {
      "type": "string"
     },
     "pushesQueued": {
      "type": "integer"
     }
    }
   },
   "TemplateUpdateResult": {
    "type": "object",
    "required": [
     "matched",
     "changed",
     "pushesQueued"
    ],
    "properties": {
     "matched": {
      "type": "integer"
     },
     "changed": {
      "type": "integer"
     },
     "pushesQueued": {
      "type": "integer"
     }
    }
   },
   "TemplateList": {
    "type": "object",
    "required": [
     "templates"
    ],
    "properties": {
     "templates": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [
        "name",
        "status"
       ],
       "properties": {
        "name": {
         "type": "string"
        },
        "status": {
         "type": "string",
         "enum": [
          "ready",
          "unavailable"
         ]
        },
        "passTypeIdentifier": {
         "type": "string"
        },
        "teamIdentifier": {
         "type": "string"
        },
        "placeholders": {
         "type": "array",
         "items": {
          "type": "string"
         }
        },
        "reason": {
         "type": "string"
        }
       }
      }
     }
    }
   },
   "DeviceLogs": {
    "type": "object",
    "required": [
     "logs"
    ],
    "properties": {
     "logs": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [
        "receivedAt",
        "message"
       ],
       "properties": {
        "receivedAt": {
         "type": "string"
        },
        "message": {
         "type": "string"
        }
       }
      }
     }
    }
   },
   "PushToken": {
    "type": "object",
    "required": [
     "pushToken"
    ],
    "properties": {
     "pushToken": {
      "type": "string",
      "pattern": "^[0-9A-Fa-f]{1,256}$"
     }
    }
   },
   "SerialNumbers": {
    "type": "object",
    "required": [
     "serialNumbers",
     "lastUpdated"
    ],
    "properties": {
     "serialNumbers": {
      "type": "array",
      "items": {
       "type": "string"
      }
     },
     "lastUpdated": {
      "type": "string"
     }
    }
   },
   "LogEntries": {
    "type": "object",
    "required": [
     "logs"
    ],
    "properties": {
     "logs": {
      "type": "array",
      "items": {
       "type": "string"
      }
     }
    }
   },
   "Personalization": {
    "type": "object",
    "required": [
     "personalizationToken"
    ],
    "properties": {
     "personalizationToken": {
      "type": "string",
      "minLength": 1
     },
     "requiredPersonalizationInfo": {
      "type": "object"
     }
    }
   },
   "PushStats": {
    "type": "object",
    "required": [
     "queued",
     "inFlight",
     "oldestPendingSeconds",
     "sent",
     "failuresByReason",
     "pendingByLastError",
     "stoppedIdentities"
    ],
    "properties": {
     "queued": {
      "type": "integer"
     },
     "inFlight": {
      "type": "integer"
     },
     "oldestPendingSeconds": {
      "type": [
       "integer",
       "null"
      ]
     },
     "sent": {
      "type": "integer"
     },
     "failuresByReason": {
      "type": "object",
      "additionalProperties": {
       "type": "integer"
      }
     },
     "pendingByLastError": {
      "type": "object",
      "additionalProperties": {
       "type": "integer"
      }
     },
     "stoppedIdentities": {
      "type": "object",
      "additionalProperties": {
       "type": "string"
      }
     }
    }
   },
   "Finding": {
    "type": "object",
    "required": [
     "rule",
     "severity",
     "location",
     "before",
     "after",
     "effect"
    ],
    "properties": {
     "rule": {
      "type": "string"
     },
     "severity": {
      "type": "string",
      "enum": [
       "error",
       "warning",
       "advice"
      ]
     },
     "location": {
      "type": "string"
     },
     "before": {
      "type": "string"
     },
     "after": {
      "type": "string"
     },
     "effect": {
      "type": "string"
     }
    }
   }
  }
 }
}
"""#
}
