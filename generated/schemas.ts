/**
 * DO NOT EDIT. The document's component schemas without annotations (for validateResponses), generated from openapi/openapi.yaml by `npm run generate`;
 * `npm run check-generated` fails when this file is stale.
 */

/** Every component schema by name. */
export const DOCUMENT_SCHEMAS: Record<string, unknown> = {
  "DateTime": {
    "type": "string",
    "format": "date-time",
    "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,7})?(Z|[+-]\\d{2}:\\d{2})$"
  },
  "Duration": {
    "type": "string",
    "pattern": "^(\\d+\\.)?([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,7})?$"
  },
  "ArtifactUrl": {
    "type": "string",
    "format": "uri"
  },
  "SitemapRequestInput": {
    "type": "object",
    "required": [
      "url"
    ],
    "properties": {
      "url": {
        "type": "string",
        "format": "uri"
      },
      "max_cache_age": {
        "type": [
          "integer",
          "null"
        ],
        "format": "int32",
        "default": 0
      }
    }
  },
  "SitemapRequestResponse": {
    "type": "object",
    "required": [
      "id",
      "url",
      "state",
      "credit_usage",
      "error",
      "error_reason",
      "from_cache",
      "started_at",
      "completed_at",
      "running_time",
      "links",
      "link_count"
    ],
    "properties": {
      "id": {
        "type": [
          "string",
          "null"
        ]
      },
      "url": {
        "type": [
          "string",
          "null"
        ]
      },
      "state": {
        "type": [
          "string",
          "null"
        ]
      },
      "credit_usage": {
        "type": [
          "integer",
          "null"
        ],
        "format": "int32"
      },
      "error": {
        "type": [
          "string",
          "null"
        ]
      },
      "error_reason": {
        "type": [
          "string",
          "null"
        ]
      },
      "from_cache": {
        "type": [
          "boolean",
          "null"
        ]
      },
      "started_at": {
        "$ref": "#/components/schemas/DateTime"
      },
      "completed_at": {
        "$ref": "#/components/schemas/DateTime"
      },
      "running_time": {
        "$ref": "#/components/schemas/Duration"
      },
      "links": {
        "type": [
          "array",
          "null"
        ],
        "items": {
          "type": "string"
        }
      },
      "link_count": {
        "type": [
          "integer",
          "null"
        ],
        "format": "int32"
      }
    }
  },
  "ApiError": {
    "type": "object",
    "required": [
      "type",
      "id",
      "code",
      "message"
    ],
    "properties": {
      "type": {
        "type": [
          "string",
          "null"
        ]
      },
      "id": {
        "type": [
          "string",
          "null"
        ]
      },
      "code": {
        "type": [
          "string",
          "null"
        ]
      },
      "message": {
        "type": [
          "string",
          "null"
        ]
      }
    }
  },
  "FieldTypeName": {
    "type": "string",
    "enum": [
      "array",
      "boolean",
      "datetime",
      "decimal",
      "double",
      "integer",
      "object",
      "string"
    ]
  },
  "FieldTypeCode": {
    "type": "integer",
    "format": "int32",
    "enum": [
      0,
      1,
      2,
      3,
      4,
      5,
      6,
      7
    ]
  },
  "SchemaFieldInput": {
    "type": "object",
    "required": [
      "name",
      "type"
    ],
    "properties": {
      "type": {
        "$ref": "#/components/schemas/FieldTypeName"
      },
      "name": {
        "type": "string"
      },
      "description": {
        "type": [
          "string",
          "null"
        ]
      },
      "fields": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/SchemaFieldInput"
        }
      }
    }
  },
  "SchemaField": {
    "type": "object",
    "required": [
      "name",
      "type",
      "description",
      "fields"
    ],
    "properties": {
      "type": {
        "$ref": "#/components/schemas/FieldTypeCode"
      },
      "name": {
        "type": "string"
      },
      "description": {
        "type": [
          "string",
          "null"
        ]
      },
      "fields": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/SchemaField"
        }
      }
    }
  },
  "DataSchemaInput": {
    "type": "object",
    "properties": {
      "id": {
        "type": [
          "string",
          "null"
        ]
      },
      "name": {
        "type": [
          "string",
          "null"
        ]
      },
      "description": {
        "type": [
          "string",
          "null"
        ]
      },
      "fields": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/SchemaFieldInput"
        }
      }
    }
  },
  "DataSchema": {
    "type": "object",
    "required": [
      "fields"
    ],
    "properties": {
      "id": {
        "type": [
          "string",
          "null"
        ]
      },
      "name": {
        "type": [
          "string",
          "null"
        ]
      },
      "description": {
        "type": [
          "string",
          "null"
        ]
      },
      "fields": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/SchemaField"
        }
      }
    }
  },
  "BrowserRequestId": {
    "type": "string",
    "pattern": "^brq_[A-Za-z0-9]+$"
  },
  "BrowserRequestState": {
    "type": "string",
    "enum": [
      "pending",
      "running",
      "completed",
      "failed"
    ]
  },
  "BrowserRequest": {
    "type": "object",
    "required": [
      "id",
      "url",
      "proxy_location",
      "state",
      "credit_usage",
      "error",
      "error_reason",
      "actual_url",
      "http_status_code",
      "from_cache",
      "started_at",
      "completed_at",
      "running_time",
      "page_load_time",
      "actions",
      "video"
    ],
    "properties": {
      "id": {
        "$ref": "#/components/schemas/BrowserRequestId"
      },
      "url": {
        "type": "string"
      },
      "proxy_location": {},
      "state": {
        "$ref": "#/components/schemas/BrowserRequestState"
      },
      "credit_usage": {
        "type": "integer"
      },
      "error": {},
      "error_reason": {},
      "actual_url": {},
      "http_status_code": {
        "type": [
          "integer",
          "null"
        ]
      },
      "from_cache": {
        "type": "boolean"
      },
      "started_at": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/DateTime"
          },
          {
            "type": "null"
          }
        ]
      },
      "completed_at": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/DateTime"
          },
          {
            "type": "null"
          }
        ]
      },
      "running_time": {},
      "page_load_time": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/Duration"
          },
          {
            "type": "null"
          }
        ]
      },
      "actions": {
        "type": [
          "array",
          "null"
        ],
        "items": {
          "$ref": "#/components/schemas/Action"
        }
      },
      "video": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/ArtifactUrl"
          },
          {
            "type": "null"
          }
        ]
      }
    },
    "allOf": [
      {
        "if": {
          "required": [
            "state"
          ],
          "properties": {
            "state": {
              "const": "pending"
            }
          }
        },
        "then": {
          "properties": {
            "started_at": {
              "type": "null"
            },
            "completed_at": {
              "type": "null"
            }
          }
        }
      },
      {
        "if": {
          "required": [
            "state"
          ],
          "properties": {
            "state": {
              "const": "running"
            }
          }
        },
        "then": {
          "properties": {
            "started_at": {
              "type": "string"
            },
            "completed_at": {
              "type": "null"
            }
          }
        }
      },
      {
        "if": {
          "required": [
            "state"
          ],
          "properties": {
            "state": {
              "const": "completed"
            }
          }
        },
        "then": {
          "properties": {
            "started_at": {
              "type": "string"
            },
            "completed_at": {
              "type": "string"
            }
          }
        }
      },
      {
        "if": {
          "required": [
            "started_at"
          ],
          "properties": {
            "started_at": {
              "type": "null"
            }
          }
        },
        "then": {
          "properties": {
            "http_status_code": {
              "type": "null"
            },
            "actions": {
              "type": "null"
            }
          }
        }
      },
      {
        "if": {
          "required": [
            "state",
            "started_at"
          ],
          "properties": {
            "state": {
              "const": "failed"
            },
            "started_at": {
              "type": "null"
            }
          }
        },
        "then": {
          "properties": {
            "credit_usage": {
              "const": 0
            }
          }
        }
      }
    ]
  },
  "Action": {
    "type": "object",
    "required": [
      "id",
      "type",
      "custom_id",
      "timestamp",
      "output",
      "reference",
      "iterations",
      "actions",
      "error"
    ],
    "properties": {
      "id": {
        "type": "string",
        "pattern": "^act_[A-Za-z0-9]+$"
      },
      "type": {
        "type": "string"
      },
      "custom_id": {},
      "timestamp": {
        "$ref": "#/components/schemas/DateTime"
      },
      "output": {
        "anyOf": [
          {
            "$ref": "#/components/schemas/ArtifactUrl"
          },
          {
            "type": "null"
          },
          {
            "type": "string"
          },
          {
            "type": "object",
            "additionalProperties": true
          }
        ]
      },
      "reference": {},
      "iterations": {},
      "actions": {
        "type": [
          "array",
          "null"
        ],
        "items": {
          "$ref": "#/components/schemas/Action"
        }
      },
      "error": {}
    },
    "allOf": [
      {
        "if": {
          "required": [
            "type"
          ],
          "properties": {
            "type": {
              "const": "wait"
            }
          }
        },
        "then": {
          "properties": {
            "output": {
              "type": "null"
            }
          }
        }
      },
      {
        "if": {
          "required": [
            "type"
          ],
          "properties": {
            "type": {
              "const": "print"
            }
          }
        },
        "then": {
          "properties": {
            "output": {
              "anyOf": [
                {
                  "$ref": "#/components/schemas/ArtifactUrl"
                },
                {
                  "type": "null"
                }
              ]
            }
          }
        }
      },
      {
        "if": {
          "required": [
            "type"
          ],
          "properties": {
            "type": {
              "const": "generate_markdown"
            }
          }
        },
        "then": {
          "properties": {
            "output": {
              "type": [
                "string",
                "null"
              ]
            }
          }
        }
      }
    ]
  },
  "BrowserRequestPage": {
    "type": "object",
    "required": [
      "total_pages",
      "total_records",
      "results",
      "page",
      "page_size"
    ],
    "properties": {
      "total_pages": {
        "type": "integer",
        "minimum": 0
      },
      "total_records": {
        "type": "integer",
        "minimum": 0
      },
      "results": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/BrowserRequest"
        }
      },
      "page": {
        "type": "integer",
        "minimum": 1
      },
      "page_size": {
        "type": "integer",
        "minimum": 1
      }
    }
  },
  "BrowserRequestListResponse": {
    "type": "object",
    "required": [
      "data",
      "error"
    ],
    "properties": {
      "data": {
        "$ref": "#/components/schemas/BrowserRequestPage"
      },
      "error": {
        "type": "null"
      }
    }
  }
};
